{{/* Chart name, overridable. */}}
{{- define "hopwatch.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name of the release's resources (63 characters at most, a DNS label). */}}
{{- define "hopwatch.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "hopwatch.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels on every resource. */}}
{{- define "hopwatch.labels" -}}
helm.sh/chart: {{ include "hopwatch.chart" . }}
{{ include "hopwatch.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Labels that select the pod (never change them after install: selectors are immutable). */}}
{{- define "hopwatch.selectorLabels" -}}
app.kubernetes.io/name: {{ include "hopwatch.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Secret holding the root password: the user's own, or the chart's. */}}
{{- define "hopwatch.secretName" -}}
{{- if .Values.existingSecret }}
{{- .Values.existingSecret }}
{{- else }}
{{- include "hopwatch.fullname" . }}
{{- end }}
{{- end }}

{{- define "hopwatch.secretKey" -}}
{{- if .Values.existingSecret }}
{{- .Values.existingSecretKey }}
{{- else -}}
root-password
{{- end }}
{{- end }}

{{- define "hopwatch.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* Labels that select the agent pods: not the server's, so the server's Services never pick an agent. */}}
{{- define "hopwatch.agentSelectorLabels" -}}
app.kubernetes.io/name: {{ include "hopwatch.name" . }}-agent
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* "true" when the values name PostgreSQL and Redis: the cluster (a Deployment of replicaCount replicas), else "". */}}
{{- define "hopwatch.clustered" -}}
{{- if and (or .Values.database.url .Values.database.existingSecret) (or .Values.redis.url .Values.redis.existingSecret) -}}
true
{{- end }}
{{- end }}

{{/* The Secret with the replicas' shared key files: the user's own, or the chart's. */}}
{{- define "hopwatch.keysSecretName" -}}
{{- if .Values.keys.existingSecret }}
{{- .Values.keys.existingSecret }}
{{- else }}
{{- include "hopwatch.fullname" . }}-keys
{{- end }}
{{- end }}
