// Numbered migrations, applied in order at start inside one transaction each. A migration
// is never edited once released: add the next number instead.
//
// Both backends follow this one history (issue 42 item 2; docs/store.md "Writing a
// migration"). DuckDB runs every migration from 1. A new PostgreSQL database starts at
// postgres/baseline.ts, the schema migrations 1 to 22 leave (recorded as applied), and then runs
// 23 on like DuckDB: `up` where the one SQL text serves both dialects (most statements do,
// DuckDB's type and function names included: dialect.ts), `postgres` instead of it where they
// differ. A `convert` step gets a Queryable that says its dialect (dialectOf).
import type { Queryable } from './db.js';
import { dialectOf } from './dialect.js';
import { BaselineMigration, PostgresBaseline } from './postgres/baseline.js';
import { SamplesSchemaSql } from './postgres/samples-schema.js';
import { CompactSwap, convertToCompact, type ConvertOptions, type MigrationLog } from './compact-migration.js';
import { convertSampleOrder, SampleOrderSwap } from './sample-order.js';

export interface Migration {
  id: number;
  name: string;
  /**
   * Work too large for one transaction, run before `up` in transactions of its own, and
   * able to go on where a killed start left it (compact-migration.ts).
   */
  convert?: (q: Queryable, opts: ConvertOptions) => Promise<void>;
  up: string[];
  /** The statements PostgreSQL runs instead of `up`, where the dialects differ (from migration 23 on). */
  postgres?: string[];
}

export interface MigrationOptions {
  log?: MigrationLog;
  /** Rows per transaction of a migration's conversion (tests make it small). */
  batchRows?: number;
}

/**
 * PostgreSQL: notification_id_seq moved past every stored id, never back. DuckDB numbers
 * notifications in memory (server/alerts/service.ts), so its sequence does not say where the ids
 * stand; PostgreSQL takes them from the sequence (migration 27, and the move's carried sequences).
 */
export const NotificationSequencePastIds = `SELECT setval('notification_id_seq', greatest((SELECT last_value FROM notification_id_seq), coalesce((SELECT max(id) FROM notifications), 0)), true)`;

export const migrations: Migration[] = [
  {
    id: 1,
    name: 'accounts, users and login sessions',
    up: [
      `CREATE SEQUENCE account_id_seq START 1`,
      `CREATE TABLE accounts (
         id INTEGER PRIMARY KEY DEFAULT nextval('account_id_seq'),
         name VARCHAR NOT NULL,
         created_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
      `CREATE SEQUENCE user_id_seq START 1`,
      `CREATE TABLE users (
         id INTEGER PRIMARY KEY DEFAULT nextval('user_id_seq'),
         account_id INTEGER NOT NULL REFERENCES accounts(id),
         name VARCHAR NOT NULL,
         email VARCHAR NOT NULL,
         password_hash VARCHAR NOT NULL,
         roles VARCHAR[] NOT NULL DEFAULT [],
         is_root BOOLEAN NOT NULL DEFAULT false,
         temp_password BOOLEAN NOT NULL DEFAULT false,
         created_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
      `CREATE UNIQUE INDEX users_name_lower ON users (lower(name))`,
      `CREATE TABLE login_sessions (
         token_hash VARCHAR PRIMARY KEY,
         user_id INTEGER NOT NULL,
         persistent BOOLEAN NOT NULL,
         created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
         expires_at TIMESTAMPTZ NOT NULL)`,
    ],
  },
  {
    id: 2,
    name: 'sessions, hosts, samples, rollups, summaries, comments, key-values, display configurations',
    up: [
      // A session is one run of a trace to one target (spec 2 "Session"); its id is the
      // target id the console uses. Times are epoch milliseconds.
      `CREATE SEQUENCE session_id_seq START 1`,
      `CREATE TABLE sessions (
         id INTEGER PRIMARY KEY DEFAULT nextval('session_id_seq'),
         account_id INTEGER NOT NULL,
         original_target VARCHAR NOT NULL,
         target_name VARCHAR NOT NULL,
         target_ip VARCHAR NOT NULL,
         description VARCHAR NOT NULL DEFAULT '',
         state TINYINT NOT NULL,
         persistence_mode TINYINT NOT NULL DEFAULT 0,
         dynamic_dns_mode TINYINT NOT NULL,
         collector_mode TINYINT NOT NULL DEFAULT 0,
         sentinel_id INTEGER NOT NULL DEFAULT -1,
         configuration_id INTEGER NOT NULL DEFAULT 1,
         trace_interval_ms INTEGER NOT NULL,
         final_hop_only BOOLEAN NOT NULL DEFAULT false,
         created_by INTEGER,
         start_time BIGINT NOT NULL,
         end_time BIGINT,
         first_sample BIGINT,
         latest_sample BIGINT,
         sample_count BIGINT NOT NULL DEFAULT 0)`,
      // One row per hop of a session: the address seen now, its reverse name, and what
      // users wrote (Edit Name / Edit Notes).
      `CREATE TABLE hosts (
         session_id INTEGER NOT NULL,
         hop SMALLINT NOT NULL,
         address VARCHAR NOT NULL DEFAULT '',
         dns_name VARCHAR NOT NULL DEFAULT '',
         name VARCHAR NOT NULL DEFAULT '',
         notes VARCHAR NOT NULL DEFAULT '',
         updated_at BIGINT NOT NULL,
         PRIMARY KEY (session_id, hop))`,
      `CREATE TABLE route_changes (
         session_id INTEGER NOT NULL,
         time BIGINT NOT NULL,
         hop SMALLINT NOT NULL,
         old_address VARCHAR NOT NULL,
         new_address VARCHAR NOT NULL)`,
      // Every hop sample ever taken: latency ms, or a special code (engine/latency-codes.ts).
      // No index: appended in time order, so DuckDB's zone maps prune by time.
      // time is DOUBLE (exact for whole ms) so the appender takes JS numbers without BigInt.
      `CREATE TABLE samples (
         session_id INTEGER NOT NULL,
         time DOUBLE NOT NULL,
         hop SMALLINT NOT NULL,
         latency DOUBLE NOT NULL)`,
      // Pre-aggregated cells of closed periods, one table for every resolution (ms); the
      // row shape of wasm/kernel-types.ts AggregateColumns. NULL where the kernel has NaN.
      `CREATE TABLE rollups (
         resolution INTEGER NOT NULL,
         session_id INTEGER NOT NULL,
         time DOUBLE NOT NULL,
         hop SMALLINT NOT NULL,
         count INTEGER NOT NULL,
         lost INTEGER NOT NULL,
         sum DOUBLE NOT NULL,
         min DOUBLE,
         max DOUBLE,
         first DOUBLE,
         last_valid DOUBLE,
         jitter_sum DOUBLE NOT NULL,
         jitter_pairs INTEGER NOT NULL,
         last DOUBLE,
         flags INTEGER NOT NULL)`,
      // Up to which time each session's rollups are complete, per resolution.
      `CREATE TABLE rollup_marks (
         resolution INTEGER NOT NULL,
         session_id INTEGER NOT NULL,
         closed_until DOUBLE NOT NULL,
         PRIMARY KEY (resolution, session_id))`,
      `CREATE SEQUENCE summary_id_seq START 1`,
      `CREATE TABLE summaries (
         id INTEGER PRIMARY KEY DEFAULT nextval('summary_id_seq'),
         account_id INTEGER NOT NULL,
         name VARCHAR NOT NULL,
         is_all_targets BOOLEAN NOT NULL DEFAULT false,
         created_by INTEGER,
         created_at BIGINT NOT NULL)`,
      `CREATE TABLE summary_members (
         summary_id INTEGER NOT NULL,
         session_id INTEGER NOT NULL,
         added_at BIGINT NOT NULL,
         PRIMARY KEY (summary_id, session_id))`,
      `CREATE SEQUENCE comment_id_seq START 1`,
      `CREATE TABLE comments (
         id INTEGER PRIMARY KEY DEFAULT nextval('comment_id_seq'),
         session_id INTEGER NOT NULL,
         when_ms BIGINT NOT NULL,
         text VARCHAR NOT NULL,
         type INTEGER NOT NULL DEFAULT 0,
         extra_attributes_json VARCHAR NOT NULL DEFAULT '',
         created_by INTEGER,
         updated_at BIGINT NOT NULL)`,
      // Key-value pairs; user_id 0 for the Account scope (spec 1 "Link scope kinds").
      `CREATE TABLE kvp (
         account_id INTEGER NOT NULL,
         user_id INTEGER NOT NULL,
         scope TINYINT NOT NULL,
         key VARCHAR NOT NULL,
         value VARCHAR NOT NULL,
         PRIMARY KEY (account_id, user_id, scope, key))`,
      // Named configurations: display thresholds and engine settings (spec 2 "Configuration").
      `CREATE SEQUENCE configuration_id_seq START 1`,
      `CREATE TABLE configurations (
         id INTEGER PRIMARY KEY DEFAULT nextval('configuration_id_seq'),
         name VARCHAR NOT NULL,
         description VARCHAR NOT NULL DEFAULT '',
         warn DOUBLE NOT NULL DEFAULT 100,
         bad DOUBLE NOT NULL DEFAULT 250,
         scale DOUBLE NOT NULL DEFAULT 100,
         engine_json VARCHAR NOT NULL DEFAULT '{}')`,
      `INSERT INTO configurations (name, description) VALUES ('Default', 'Default settings')`,
    ],
  },
  {
    id: 3,
    name: 'support tickets',
    up: [
      // Tickets sent from the console's support dialog, kept in the appliance (a
      // self-hosted server has no mail relay); the error log is the console's Error_Log.
      `CREATE SEQUENCE support_ticket_id_seq START 1`,
      `CREATE TABLE support_tickets (
         id INTEGER PRIMARY KEY DEFAULT nextval('support_ticket_id_seq'),
         account_id INTEGER NOT NULL,
         user_id INTEGER NOT NULL,
         name VARCHAR NOT NULL,
         email VARCHAR NOT NULL,
         problem_statement VARCHAR NOT NULL,
         error_log VARCHAR NOT NULL,
         created_at BIGINT NOT NULL)`,
    ],
  },
  {
    id: 4,
    name: 'sample tallies',
    up: [
      // Each ingest flush appends its per-session sample counts here (an appender, in the
      // flush's transaction) instead of updating the sessions row: an UPDATE of that wide,
      // indexed row in every flush cost about 8% of the ingest. They are folded into sessions
      // with each group of rollup rows and at start; sessions_counted adds what is not yet.
      `CREATE TABLE sample_tallies (
         session_id INTEGER NOT NULL,
         samples INTEGER NOT NULL,
         first_sample DOUBLE NOT NULL,
         latest_sample DOUBLE NOT NULL)`,
      `CREATE VIEW sessions_counted AS
       SELECT s.* REPLACE (
           s.sample_count + coalesce(t.samples, 0) AS sample_count,
           least(s.first_sample, t.first_sample) AS first_sample,
           greatest(s.latest_sample, t.latest_sample) AS latest_sample)
       FROM sessions s LEFT JOIN (
         SELECT session_id, sum(samples)::BIGINT AS samples, min(first_sample)::BIGINT AS first_sample,
                max(latest_sample)::BIGINT AS latest_sample
         FROM sample_tallies GROUP BY session_id) t ON t.session_id = s.id`,
    ],
  },
  {
    id: 5,
    name: 'compact samples and rollups',
    // Latencies and rollup statistics as integer microseconds (docs/store.md "Compact
    // samples"): copied batch by batch, then the copies replace the old tables.
    convert: convertToCompact,
    up: CompactSwap,
  },
  {
    id: 6,
    name: 'storage settings',
    up: [
      // Server-wide storage settings by name (retention-settings.ts): what Settings > General
      // will edit; the HOPWATCH_RETENTION_* variables override them.
      `CREATE TABLE storage_settings (
         name VARCHAR PRIMARY KEY,
         value VARCHAR NOT NULL,
         updated_at BIGINT NOT NULL)`,
    ],
  },
  {
    id: 7,
    name: 'remote agents',
    up: [
      // Remote collector agents (spec 1 "Agents page"). Keys are stored as SHA-256 hashes only:
      // enrol_hash is the Auto Setup link's one-time enrolment key, credential_hash the agent's
      // own credential it got in exchange. last_seq: the newest round batch committed from it.
      `CREATE SEQUENCE agent_id_seq START 1`,
      `CREATE TABLE agents (
         id INTEGER PRIMARY KEY DEFAULT nextval('agent_id_seq'),
         account_id INTEGER NOT NULL,
         unique_id VARCHAR NOT NULL,
         name VARCHAR NOT NULL,
         enrol_hash VARCHAR,
         credential_hash VARCHAR,
         machine_id VARCHAR NOT NULL DEFAULT '',
         machine_name VARCHAR NOT NULL DEFAULT '',
         platform TINYINT NOT NULL DEFAULT 0,
         version VARCHAR NOT NULL DEFAULT '',
         mode TINYINT NOT NULL DEFAULT 0,
         last_message BIGINT,
         last_seq BIGINT NOT NULL DEFAULT 0,
         created_at BIGINT NOT NULL)`,
    ],
  },
  {
    id: 8,
    name: 'settings editor',
    up: [
      // Configurations belong to an account (the existing ones to the first account) and
      // have an order the settings tree's drag and drop sets (server/settings/). The table is
      // made again rather than altered: DuckDB (1.5) cannot replay from its WAL an ALTER TABLE
      // ADD COLUMN on a table with a nextval() default ("GetDefaultDatabase with no default
      // database set"), so a server killed before its next checkpoint could not start again
      // (server/store/migration-replay.integration.test.ts).
      `CREATE TABLE configurations_before_8 AS SELECT * FROM configurations`,
      `DROP TABLE configurations`,
      `CREATE TABLE configurations (
         id INTEGER PRIMARY KEY DEFAULT nextval('configuration_id_seq'),
         name VARCHAR NOT NULL,
         description VARCHAR NOT NULL DEFAULT '',
         warn DOUBLE NOT NULL DEFAULT 100,
         bad DOUBLE NOT NULL DEFAULT 250,
         scale DOUBLE NOT NULL DEFAULT 100,
         engine_json VARCHAR NOT NULL DEFAULT '{}',
         account_id INTEGER DEFAULT 1,
         position INTEGER DEFAULT 0)`,
      `INSERT INTO configurations (id, name, description, warn, bad, scale, engine_json, account_id, position)
       SELECT id, name, description, warn, bad, scale, engine_json, coalesce((SELECT min(id) FROM accounts), 1), 0
       FROM configurations_before_8`,
      `DROP TABLE configurations_before_8`,
      // Per account: Settings > General as JSON, and the settings version a save must name
      // (two consoles saving at once: the second gets 409 instead of overwriting).
      `CREATE TABLE account_settings (
         account_id INTEGER PRIMARY KEY,
         version INTEGER NOT NULL DEFAULT 1,
         general_json VARCHAR NOT NULL DEFAULT '{}')`,
    ],
  },
  {
    id: 9,
    name: 'liveshare links and history',
    up: [
      // LiveShare links (spec 1 section 3; docs/liveshare.md). The password is kept twice:
      // pw_digest (SHA-256) is what a visit is checked against; pw_sealed (AES-256-GCM under
      // the data directory's liveshare.key) lets managers copy the link's URL again later.
      `CREATE SEQUENCE liveshare_link_id_seq START 1`,
      `CREATE TABLE liveshare_links (
         id INTEGER PRIMARY KEY DEFAULT nextval('liveshare_link_id_seq'),
         share_id VARCHAR NOT NULL UNIQUE,
         pw_digest VARCHAR NOT NULL,
         pw_sealed VARCHAR NOT NULL,
         description VARCHAR NOT NULL,
         notes VARCHAR NOT NULL DEFAULT '',
         active BOOLEAN NOT NULL DEFAULT true,
         created_at BIGINT NOT NULL,
         expires_at BIGINT,
         summary_ref VARCHAR NOT NULL,
         target_ref VARCHAR NOT NULL DEFAULT '',
         account_id INTEGER NOT NULL,
         created_by VARCHAR NOT NULL)`,
      // History outlives a link deleted for good (link_id then names no link; share_id stays).
      `CREATE SEQUENCE liveshare_history_id_seq START 1`,
      `CREATE TABLE liveshare_history (
         id BIGINT PRIMARY KEY DEFAULT nextval('liveshare_history_id_seq'),
         link_id INTEGER NOT NULL,
         share_id VARCHAR NOT NULL,
         account_id INTEGER NOT NULL,
         happened_at BIGINT NOT NULL,
         address VARCHAR NOT NULL,
         action VARCHAR NOT NULL,
         log_text VARCHAR NOT NULL)`,
      `CREATE INDEX liveshare_history_link ON liveshare_history (link_id)`,
    ],
  },
  {
    id: 10,
    name: 'insight feedback',
    up: [
      // Feedback on an Insights result (spec 3 section 3.1 "Feedback"; server/insights/).
      'CREATE SEQUENCE insight_feedback_id_seq START 1',
      `CREATE TABLE insight_feedback (
         id INTEGER PRIMARY KEY DEFAULT nextval('insight_feedback_id_seq'),
         account_id INTEGER NOT NULL,
         user_id INTEGER NOT NULL,
         session_id VARCHAR NOT NULL,
         rating TINYINT NOT NULL,
         comments VARCHAR NOT NULL,
         help_requested BOOLEAN NOT NULL,
         context_json VARCHAR NOT NULL,
         created_at BIGINT NOT NULL)`,
    ],
  },
  {
    id: 11,
    name: 'alerts, their actions and state, the notification queue, mail settings',
    up: [
      // Alerts (docs/alerts.md): a condition (JSON, server/alerts/conditions.ts) on targets,
      // which events notify, and actions. Times are epoch milliseconds.
      `CREATE SEQUENCE alert_id_seq START 1`,
      `CREATE TABLE alerts (
         id INTEGER PRIMARY KEY DEFAULT nextval('alert_id_seq'),
         account_id INTEGER NOT NULL,
         created_by INTEGER NOT NULL,
         name VARCHAR NOT NULL,
         condition_json VARCHAR NOT NULL,
         events_json VARCHAR NOT NULL,
         min_repeat_seconds INTEGER NOT NULL,
         enabled BOOLEAN NOT NULL DEFAULT true,
         last_error VARCHAR NOT NULL DEFAULT '',
         last_error_at BIGINT,
         created_at BIGINT NOT NULL)`,
      `CREATE TABLE alert_targets (
         alert_id INTEGER NOT NULL,
         session_id INTEGER NOT NULL,
         PRIMARY KEY (alert_id, session_id))`,
      `CREATE SEQUENCE alert_action_id_seq START 1`,
      `CREATE TABLE alert_actions (
         id INTEGER PRIMARY KEY DEFAULT nextval('alert_action_id_seq'),
         alert_id INTEGER NOT NULL,
         kind VARCHAR NOT NULL,
         config_json VARCHAR NOT NULL)`,
      // Whether the condition holds on a target, kept so a restart does not start it again.
      `CREATE TABLE alert_state (
         alert_id INTEGER NOT NULL,
         session_id INTEGER NOT NULL,
         firing BOOLEAN NOT NULL,
         since BIGINT NOT NULL,
         notified_start BOOLEAN NOT NULL,
         PRIMARY KEY (alert_id, session_id))`,
      // The durable queue: a notification is a row until it was delivered or its time ran out.
      `CREATE SEQUENCE notification_id_seq START 1`,
      `CREATE TABLE notifications (
         id BIGINT PRIMARY KEY DEFAULT nextval('notification_id_seq'),
         alert_id INTEGER NOT NULL,
         action_id INTEGER NOT NULL,
         session_id INTEGER NOT NULL,
         event VARCHAR NOT NULL,
         variables_json VARCHAR NOT NULL,
         status VARCHAR NOT NULL,
         attempts INTEGER NOT NULL DEFAULT 0,
         next_attempt_at BIGINT NOT NULL,
         expires_at BIGINT NOT NULL,
         answer VARCHAR NOT NULL DEFAULT '',
         created_at BIGINT NOT NULL,
         done_at BIGINT)`,
      `CREATE INDEX notifications_status ON notifications (status)`,
      // SMTP settings by name (server/mail/settings.ts); HOPWATCH_SMTP_* fill in what is unset.
      `CREATE TABLE mail_settings (
         name VARCHAR PRIMARY KEY,
         value VARCHAR NOT NULL,
         updated_at BIGINT NOT NULL)`,
    ],
  },
  {
    id: 12,
    name: 'impersonation and its audit',
    up: [
      // Which login session acts as whom (server/impersonation/). No key: a session has one
      // row at most (a second start is refused), and DuckDB's keys dislike delete-then-insert.
      `CREATE TABLE impersonations (
         token_hash VARCHAR NOT NULL,
         actor_user_id INTEGER NOT NULL,
         as_user_id INTEGER NOT NULL,
         address VARCHAR NOT NULL,
         started_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
      // Who impersonated whom, when, from where, and each state-changing call meanwhile.
      // Names are copied: the record outlives the users.
      `CREATE SEQUENCE impersonation_audit_id_seq START 1`,
      `CREATE TABLE impersonation_audit (
         id BIGINT PRIMARY KEY DEFAULT nextval('impersonation_audit_id_seq'),
         occurred_at TIMESTAMPTZ NOT NULL DEFAULT now(),
         account_id INTEGER NOT NULL,
         actor_user_id INTEGER NOT NULL,
         actor_name VARCHAR NOT NULL,
         as_user_id INTEGER NOT NULL,
         as_name VARCHAR NOT NULL,
         action VARCHAR NOT NULL,
         detail VARCHAR NOT NULL DEFAULT '',
         status INTEGER NOT NULL DEFAULT 0,
         address VARCHAR NOT NULL DEFAULT '')`,
    ],
  },
  {
    id: 13,
    name: 'activation links (issue 26)',
    up: [
      // One-time links that let a web user set their own password (server/activation/). Only
      // the token's SHA-256 is kept. A link ends when used or replaced by a newer one; the row
      // stays a while so opening it again says why it no longer works. Times are epoch ms.
      // No key: DuckDB's keys dislike an update in the transaction that reads the row.
      `CREATE TABLE activation_links (
         token_hash VARCHAR NOT NULL,
         user_id INTEGER NOT NULL,
         account_id INTEGER NOT NULL,
         sent_by_user_id INTEGER NOT NULL,
         created_at BIGINT NOT NULL,
         expires_at BIGINT NOT NULL,
         ended_at BIGINT,
         end_reason VARCHAR)`,
    ],
  },
  {
    id: 14,
    name: 'hop hosts: answers per address and minute, details on change (issue 16)',
    up: [
      // Several hosts at one hop and the per-hop details (MPLS, AS, country, DSCP, NAT):
      // server/hop-details/. details is NULL when unchanged since the address's previous row.
      `CREATE TABLE hop_hosts (
         session_id INTEGER NOT NULL,
         hop SMALLINT NOT NULL,
         address VARCHAR NOT NULL,
         minute DOUBLE NOT NULL,
         answers INTEGER NOT NULL,
         details VARCHAR)`,
    ],
  },
  {
    id: 15,
    name: 'account plans: plan, entitlements, suspension, provider account (issue 23)',
    up: [
      // A table of its own beside accounts (no ALTER of a table with a nextval() default:
      // DuckDB's WAL replay). An account without a row has the defaults (server/accounts/).
      `CREATE TABLE account_plans (
         account_id INTEGER PRIMARY KEY,
         plan VARCHAR NOT NULL DEFAULT '',
         entitled_traces INTEGER,
         entitled_agents INTEGER,
         suspended BOOLEAN NOT NULL DEFAULT false,
         suspended_reason VARCHAR NOT NULL DEFAULT '',
         provider BOOLEAN NOT NULL DEFAULT false,
         updated_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    ],
  },
  {
    id: 16,
    name: 'staff area: sign-in sessions, user events, answers to feedback (issue 23)',
    up: [
      // Each sign-in (server/staff/sessionaudit/): who, when, from where, with which browser.
      // token_hash is login_sessions' key (the token's SHA-256; the token is never kept): a
      // row is active while that login session lives. No key: revoking updates the row.
      'CREATE SEQUENCE sign_in_session_id_seq START 1',
      `CREATE TABLE sign_in_sessions (
         id INTEGER NOT NULL DEFAULT nextval('sign_in_session_id_seq'),
         token_hash VARCHAR NOT NULL,
         user_id INTEGER NOT NULL,
         account_id INTEGER NOT NULL,
         address VARCHAR NOT NULL,
         user_agent VARCHAR NOT NULL,
         persistent BOOLEAN NOT NULL,
         signed_in_at TIMESTAMPTZ NOT NULL DEFAULT now(),
         revoked_at TIMESTAMPTZ,
         revoked_by VARCHAR NOT NULL DEFAULT '')`,
      // A user's recent events (server/staff/userandevents/): sign-ins, failed sign-ins,
      // state-changing calls and refused or failed calls. Method and route pattern only,
      // never a query or a body. Bounded: 30 days and the newest 1,000 rows per user.
      'CREATE SEQUENCE user_event_id_seq START 1',
      `CREATE TABLE user_events (
         id BIGINT NOT NULL DEFAULT nextval('user_event_id_seq'),
         occurred_at TIMESTAMPTZ NOT NULL DEFAULT now(),
         account_id INTEGER NOT NULL,
         user_id INTEGER NOT NULL,
         kind VARCHAR NOT NULL,
         method VARCHAR NOT NULL DEFAULT '',
         route VARCHAR NOT NULL DEFAULT '',
         status INTEGER NOT NULL DEFAULT 0,
         address VARCHAR NOT NULL DEFAULT '',
         detail VARCHAR NOT NULL DEFAULT '')`,
      // Staff answers to Insights feedback and support tickets (server/staff/feedback/):
      // mailed to the account and listed for it (GET /api/support/Answers).
      'CREATE SEQUENCE feedback_answer_id_seq START 1',
      `CREATE TABLE feedback_answers (
         id INTEGER NOT NULL DEFAULT nextval('feedback_answer_id_seq'),
         kind VARCHAR NOT NULL,
         item_id INTEGER NOT NULL,
         account_id INTEGER NOT NULL,
         staff_user_id INTEGER NOT NULL,
         staff_name VARCHAR NOT NULL,
         text VARCHAR NOT NULL,
         mailed BOOLEAN NOT NULL,
         mail_problem VARCHAR NOT NULL DEFAULT '',
         created_at BIGINT NOT NULL)`,
    ],
  },
  {
    id: 17,
    name: 'sidekick: its stage per account and its five discovered targets (issue 24)',
    up: [
      // server/sidekick/: one row per account once discovery started; Clear All and Restart
      // replaces both. session_id is NULL for a source that was not found.
      `CREATE TABLE sidekick (
         account_id INTEGER PRIMARY KEY,
         stage SMALLINT NOT NULL,
         summary_id INTEGER NOT NULL,
         agent_id INTEGER NOT NULL,
         started_at BIGINT NOT NULL)`,
      `CREATE TABLE sidekick_targets (
         account_id INTEGER NOT NULL,
         position SMALLINT NOT NULL,
         kind VARCHAR NOT NULL,
         original_target VARCHAR NOT NULL,
         session_id INTEGER,
         label VARCHAR NOT NULL,
         description VARCHAR NOT NULL,
         not_found_reason VARCHAR NOT NULL DEFAULT '',
         PRIMARY KEY (account_id, position))`,
    ],
  },
  {
    id: 18,
    name: 'samples in day and hop order, time as integer ms (issue 25)',
    // Each session's samples of a UTC day sorted by hop, then time, and time as BIGINT ms:
    // about two thirds of the bytes (docs/store.md "Sample order"). Copied batch by batch, then
    // the copy replaces the table; sample_packing marks the days in that order, and the
    // packer (sample-order.ts) rewrites each day once it is closed.
    convert: convertSampleOrder,
    up: SampleOrderSwap,
  },
  {
    id: 19,
    name: 'account plans: the Local Machine granted to a customer account (issue 39 item 15)',
    up: [
      // In the hosted flavour the Local Machine (agent -1) is the provider's server: a customer
      // account traces from it only when staff grant it (server/accounts/local-machine.ts).
      // The table is made again rather than altered: DuckDB (1.5) cannot replay from its WAL an
      // ALTER TABLE ADD COLUMN here either ("GetDefaultDatabase with no default database set",
      // server/store/migration-replay.integration.test.ts), as migration 8 found.
      `CREATE TABLE account_plans_before_19 AS SELECT * FROM account_plans`,
      `DROP TABLE account_plans`,
      `CREATE TABLE account_plans (
         account_id INTEGER PRIMARY KEY,
         plan VARCHAR NOT NULL DEFAULT '',
         entitled_traces INTEGER,
         entitled_agents INTEGER,
         suspended BOOLEAN NOT NULL DEFAULT false,
         suspended_reason VARCHAR NOT NULL DEFAULT '',
         provider BOOLEAN NOT NULL DEFAULT false,
         local_machine BOOLEAN NOT NULL DEFAULT false,
         updated_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
      `INSERT INTO account_plans (account_id, plan, entitled_traces, entitled_agents, suspended, suspended_reason, provider, local_machine, updated_at)
       SELECT account_id, plan, entitled_traces, entitled_agents, suspended, suspended_reason, provider, false, updated_at FROM account_plans_before_19`,
      `DROP TABLE account_plans_before_19`,
    ],
  },
  {
    id: 20,
    name: 'outage periods: agents offline and the server down, the reasons of graph gaps (issue 40 item 2)',
    up: [
      // server/data/outage-record.ts: a remote agent's link went away (kind 'agentOffline',
      // agent_id) or the server was not running (kind 'serverDown', agent_id 0); ended_at is
      // NULL while it lasts. The graphs name a gap without samples by the periods it overlaps
      // (docs/target-window-logic.md "Gaps and their reasons").
      `CREATE TABLE outage_periods (
         kind VARCHAR NOT NULL,
         agent_id INTEGER NOT NULL DEFAULT 0,
         started_at BIGINT NOT NULL,
         ended_at BIGINT)`,
      // One row per server start: alive_at moves on while it runs, so the next start knows
      // when the server went away (a SIGKILL or a power cut leaves no other trace).
      `CREATE TABLE server_runs (
         started_at BIGINT PRIMARY KEY,
         alive_at BIGINT NOT NULL)`,
    ],
  },
  {
    id: 21,
    name: 'agent setup keys kept until used or replaced (issue 40 item 3)',
    up: [
      // server/agents/setup-keys.ts: the agent's current setup key sealed (AES-256-GCM under
      // agent-setup.key in the data directory), so Installer, Download Agent and Auto Setup show
      // the same link again instead of minting a new key that broke the link copied before;
      // agents.enrol_hash stays the key's check. replaced_hash: the key a "New Setup Link"
      // replaced, so setting up with the old link is told it was replaced. A new table, not
      // columns on agents: DuckDB cannot replay an ALTER TABLE ADD COLUMN on a table with a
      // nextval() default from its WAL (migration 8).
      `CREATE TABLE agent_setup_keys (
         agent_id INTEGER PRIMARY KEY,
         sealed_key VARCHAR NOT NULL,
         replaced_hash VARCHAR,
         created_at BIGINT NOT NULL)`,
    ],
  },
  {
    id: 22,
    name: 'imported sessions marked (issue 41 item 5)',
    up: [
      // The sessions made by an import (server/datafiles/import.ts): the sessions page marks
      // them "Imported" and ends them where their data ends, not when the original was
      // closed. A table of its own, not a column on sessions (nextval() default: migration 21).
      `CREATE TABLE imported_sessions (
         session_id INTEGER PRIMARY KEY,
         imported_at BIGINT NOT NULL)`,
    ],
  },
  {
    id: 23,
    name: 'alerts: For and Recover (issue 41 item 7)',
    up: [
      // server/alerts/evaluator.ts: an alert starts once its condition has held for_seconds and
      // ends once it has not held for recover_seconds (docs/alerts.md "Hysteresis"). A table of
      // its own, not columns on alerts (nextval() default: migration 21); an alert without a row
      // (stored before this migration) has the defaults, For 0 and Recover 120.
      `CREATE TABLE alert_hysteresis (
         alert_id INTEGER PRIMARY KEY,
         for_seconds INTEGER NOT NULL,
         recover_seconds INTEGER NOT NULL)`,
    ],
  },
  {
    id: 24,
    name: 'support ticket mails (issue 41 item 11)',
    up: [
      // What became of each ticket's mail to the operator (server/support/): the root user's
      // Support Tickets page says whether it was mailed, and why not. A table of its own, not
      // columns on support_tickets (DuckDB adds no NOT NULL column to a table).
      `CREATE TABLE support_ticket_mails (
         ticket_id INTEGER PRIMARY KEY,
         mailed_to VARCHAR NOT NULL,
         problem VARCHAR NOT NULL,
         mailed_at BIGINT NOT NULL)`,
    ],
  },
  {
    id: 25,
    name: 'samples and rollup rows in their PostgreSQL layout (issue 42 item 3)',
    // DuckDB keeps its samples and rollups tables. PostgreSQL trades the stand-in tables of the
    // baseline (DuckDB's, row per sample) for its own layout: round rows and packed blocks, day
    // partitions (postgres/samples-schema.ts, docs/store.md "Samples on PostgreSQL"); every
    // reader and writer goes through sample-tables.ts. No PostgreSQL store held data before.
    up: [],
    postgres: ['DROP TABLE samples', 'DROP TABLE rollups', ...SamplesSchemaSql],
  },
  {
    id: 27,
    name: 'the server keys in the database and notification ids from their sequence on PostgreSQL (issue 42 item 1)',
    // DuckDB keeps its key files in the data directory (a copied database file alone does not
    // give the sealed passwords away) and numbers notifications in memory (its outbox journal
    // needs the id before the store sees the row): nothing changes there. On PostgreSQL every
    // replica must open what another sealed, so the keys are rows (server/store/server-keys.ts,
    // made once by whichever replica starts first), and notification ids come from the
    // sequence, which ids numbered in memory before this had left behind.
    up: [],
    postgres: [
      `CREATE TABLE server_keys (
         name VARCHAR PRIMARY KEY,
         key VARCHAR NOT NULL,
         created_at BIGINT NOT NULL)`,
      NotificationSequencePastIds,
    ],
  },
];

export async function applyMigrations(q: Queryable, opts: MigrationOptions = {}): Promise<number[]> {
  await q.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  const done = new Set((await q.all<{ id: number }>('SELECT id FROM schema_migrations')).map((r) => r.id));
  const postgres = dialectOf(q) === 'postgres';
  const applied: number[] = [];
  if (postgres && done.size === 0) {
    await q.run('BEGIN');
    try {
      for (const sql of PostgresBaseline) await q.run(sql);
      for (const m of migrations.filter((x) => x.id <= BaselineMigration)) {
        await q.run('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
        done.add(m.id);
        applied.push(m.id);
      }
      await q.run('COMMIT');
    } catch (err) {
      await q.run('ROLLBACK');
      throw new Error(`the PostgreSQL baseline (migrations 1 to ${BaselineMigration}) failed: ${(err as Error).message}`);
    }
  }
  for (const m of migrations) {
    if (done.has(m.id)) continue;
    if (m.convert) await m.convert(q, { batchRows: opts.batchRows ?? 1_000_000, log: opts.log ?? (() => undefined) });
    await q.run('BEGIN TRANSACTION');
    try {
      for (const sql of (postgres && m.postgres) || m.up) await q.run(sql);
      await q.run('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
      await q.run('COMMIT');
    } catch (err) {
      await q.run('ROLLBACK');
      throw new Error(`migration ${m.id} (${m.name}) failed: ${(err as Error).message}`);
    }
    applied.push(m.id);
  }
  return applied;
}
