{{/*
The server's pod template, the same for both modes: the single-replica StatefulSet (the
embedded DuckDB store on its volume, the default) and the cluster's Deployment (PostgreSQL and
Redis outside, values "database" and "redis"; docs/deploy.md "Running a cluster").
*/}}
{{- define "hopwatch.podTemplate" -}}
metadata:
  labels:
    {{- include "hopwatch.selectorLabels" . | nindent 4 }}
    {{- with .Values.podLabels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with .Values.podAnnotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  {{- with .Values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  terminationGracePeriodSeconds: {{ .Values.terminationGracePeriodSeconds }}
  securityContext:
    {{- toYaml .Values.podSecurityContext | nindent 4 }}
  containers:
    - name: hopwatch
      image: {{ include "hopwatch.image" . | quote }}
      imagePullPolicy: {{ .Values.image.pullPolicy }}
      securityContext:
        {{- toYaml .Values.securityContext | nindent 8 }}
      env:
        - name: HOPWATCH_PORT
          value: "8080"
        - name: HOPWATCH_HOST
          value: "0.0.0.0"
        - name: HOPWATCH_DATA_DIR
          value: /data
        - name: HOPWATCH_ROOT_USER
          value: {{ .Values.rootUser | quote }}
        - name: HOPWATCH_ROOT_PASSWORD
          valueFrom:
            secretKeyRef:
              name: {{ include "hopwatch.secretName" . }}
              key: {{ include "hopwatch.secretKey" . }}
        {{- if .Values.database.existingSecret }}
        - name: HOPWATCH_DATABASE_URL
          valueFrom:
            secretKeyRef:
              name: {{ .Values.database.existingSecret | quote }}
              key: {{ .Values.database.existingSecretKey | quote }}
        {{- else if .Values.database.url }}
        - name: HOPWATCH_DATABASE_URL
          value: {{ .Values.database.url | quote }}
        {{- end }}
        {{- if .Values.redis.existingSecret }}
        - name: HOPWATCH_REDIS_URL
          valueFrom:
            secretKeyRef:
              name: {{ .Values.redis.existingSecret | quote }}
              key: {{ .Values.redis.existingSecretKey | quote }}
        {{- else if .Values.redis.url }}
        - name: HOPWATCH_REDIS_URL
          value: {{ .Values.redis.url | quote }}
        {{- end }}
        {{- range $name, $value := .Values.extraEnv }}
        - name: {{ $name }}
          value: {{ $value | quote }}
        {{- end }}
      ports:
        - name: http
          containerPort: 8080
          protocol: TCP
      startupProbe:
        httpGet:
          path: /healthz
          port: http
        {{- toYaml .Values.startupProbe | nindent 8 }}
      livenessProbe:
        httpGet:
          path: /healthz
          port: http
        {{- toYaml .Values.livenessProbe | nindent 8 }}
      # Ready: the store (and in a cluster Redis) answers and the server is not shutting down.
      readinessProbe:
        httpGet:
          path: /readyz
          port: http
        {{- toYaml .Values.readinessProbe | nindent 8 }}
      resources:
        {{- toYaml .Values.resources | nindent 8 }}
      volumeMounts:
        - name: data
          mountPath: /data
        {{- if include "hopwatch.clustered" . }}
        # The keys that seal LiveShare, SMTP, remote-server and agent-setup secrets: the same
        # on every replica (a Secret), read-only inside the pod's own scratch /data.
        {{- range list "liveshare.key" "agent-setup.key" "remote-server.key" }}
        - name: keys
          mountPath: /data/{{ . }}
          subPath: {{ . }}
          readOnly: true
        {{- end }}
        {{- end }}
        # The root filesystem is read-only; node and DuckDB may still need scratch space.
        - name: tmp
          mountPath: /tmp
  volumes:
    - name: tmp
      emptyDir: {}
    {{- if include "hopwatch.clustered" . }}
    # Every table, the server keys included, is in PostgreSQL: /data keeps only what the pod
    # may lose (docs/scale.md "What a replica keeps"): per-request temporary files, the agent
    # bundles it packed, its alert exports, and the key seeds above; so each replica has a
    # scratch directory of its own and none is shared.
    - name: data
      emptyDir: {}
    - name: keys
      secret:
        secretName: {{ include "hopwatch.keysSecretName" . }}
        defaultMode: 288 # 0440: the owner (root) and the pod's fsGroup read them
    {{- end }}
  {{- with .Values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- if .Values.affinity }}
  affinity:
    {{- toYaml .Values.affinity | nindent 4 }}
  {{- else if include "hopwatch.clustered" . }}
  # Replicas on different nodes where the cluster has them: losing a node loses one replica.
  affinity:
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 100
          podAffinityTerm:
            topologyKey: kubernetes.io/hostname
            labelSelector:
              matchLabels:
                {{- include "hopwatch.selectorLabels" . | nindent 16 }}
  {{- end }}
  {{- with .Values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
