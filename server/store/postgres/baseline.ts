// The PostgreSQL schema as DuckDB's migrations 1 to 22 leave it (issue 42 item 2): a new
// PostgreSQL database starts here, in one transaction, and then follows the same numbered
// history as DuckDB from migration 23 on (migrations.ts). Generated from a DuckDB store
// migrated to 22 (duckdb_tables(), duckdb_indexes()) and kept as text: a released migration
// never changes. DuckDB's type names read the same here through dialect.ts PostgresCompat.
// The sample and rollup tables here are DuckDB's, as migration 22 left them: migration 25 drops
// them on PostgreSQL for its own layout (server/store/postgres/samples-*.ts, docs/store.md).
import { PostgresCompat } from '../dialect.js';

/** The last DuckDB migration the baseline stands for. */
export const BaselineMigration = 22;

export const PostgresBaseline: string[] = [
  ...PostgresCompat,
  `CREATE SEQUENCE account_id_seq START 1`,
  `CREATE SEQUENCE agent_id_seq START 1`,
  `CREATE SEQUENCE alert_action_id_seq START 1`,
  `CREATE SEQUENCE alert_id_seq START 1`,
  `CREATE SEQUENCE comment_id_seq START 1`,
  `CREATE SEQUENCE configuration_id_seq START 1`,
  `CREATE SEQUENCE feedback_answer_id_seq START 1`,
  `CREATE SEQUENCE impersonation_audit_id_seq START 1`,
  `CREATE SEQUENCE insight_feedback_id_seq START 1`,
  `CREATE SEQUENCE liveshare_history_id_seq START 1`,
  `CREATE SEQUENCE liveshare_link_id_seq START 1`,
  `CREATE SEQUENCE notification_id_seq START 1`,
  `CREATE SEQUENCE session_id_seq START 1`,
  `CREATE SEQUENCE sign_in_session_id_seq START 1`,
  `CREATE SEQUENCE summary_id_seq START 1`,
  `CREATE SEQUENCE support_ticket_id_seq START 1`,
  `CREATE SEQUENCE user_event_id_seq START 1`,
  `CREATE SEQUENCE user_id_seq START 1`,
  `CREATE TABLE account_plans(account_id INTEGER PRIMARY KEY, plan VARCHAR DEFAULT('') NOT NULL, entitled_traces INTEGER, entitled_agents INTEGER, suspended BOOLEAN DEFAULT(CAST('f' AS BOOLEAN)) NOT NULL, suspended_reason VARCHAR DEFAULT('') NOT NULL, provider BOOLEAN DEFAULT(CAST('f' AS BOOLEAN)) NOT NULL, local_machine BOOLEAN DEFAULT(CAST('f' AS BOOLEAN)) NOT NULL, updated_at TIMESTAMP WITH TIME ZONE DEFAULT(now()) NOT NULL)`,
  `CREATE TABLE account_settings(account_id INTEGER PRIMARY KEY, "version" INTEGER DEFAULT(1) NOT NULL, general_json VARCHAR DEFAULT('{}') NOT NULL)`,
  `CREATE TABLE accounts(id INTEGER DEFAULT(nextval('account_id_seq')) PRIMARY KEY, "name" VARCHAR NOT NULL, created_at TIMESTAMP WITH TIME ZONE DEFAULT(now()) NOT NULL)`,
  `CREATE TABLE activation_links(token_hash VARCHAR NOT NULL, user_id INTEGER NOT NULL, account_id INTEGER NOT NULL, sent_by_user_id INTEGER NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, ended_at BIGINT, end_reason VARCHAR)`,
  `CREATE TABLE agent_setup_keys(agent_id INTEGER PRIMARY KEY, sealed_key VARCHAR NOT NULL, replaced_hash VARCHAR, created_at BIGINT NOT NULL)`,
  `CREATE TABLE agents(id INTEGER DEFAULT(nextval('agent_id_seq')) PRIMARY KEY, account_id INTEGER NOT NULL, unique_id VARCHAR NOT NULL, "name" VARCHAR NOT NULL, enrol_hash VARCHAR, credential_hash VARCHAR, machine_id VARCHAR DEFAULT('') NOT NULL, machine_name VARCHAR DEFAULT('') NOT NULL, platform TINYINT DEFAULT(0) NOT NULL, "version" VARCHAR DEFAULT('') NOT NULL, "mode" TINYINT DEFAULT(0) NOT NULL, last_message BIGINT, last_seq BIGINT DEFAULT(0) NOT NULL, created_at BIGINT NOT NULL)`,
  `CREATE TABLE alert_actions(id INTEGER DEFAULT(nextval('alert_action_id_seq')) PRIMARY KEY, alert_id INTEGER NOT NULL, kind VARCHAR NOT NULL, config_json VARCHAR NOT NULL)`,
  `CREATE TABLE alert_state(alert_id INTEGER, session_id INTEGER, firing BOOLEAN NOT NULL, since BIGINT NOT NULL, notified_start BOOLEAN NOT NULL, PRIMARY KEY(alert_id, session_id))`,
  `CREATE TABLE alert_targets(alert_id INTEGER, session_id INTEGER, PRIMARY KEY(alert_id, session_id))`,
  `CREATE TABLE alerts(id INTEGER DEFAULT(nextval('alert_id_seq')) PRIMARY KEY, account_id INTEGER NOT NULL, created_by INTEGER NOT NULL, "name" VARCHAR NOT NULL, condition_json VARCHAR NOT NULL, events_json VARCHAR NOT NULL, min_repeat_seconds INTEGER NOT NULL, enabled BOOLEAN DEFAULT(CAST('t' AS BOOLEAN)) NOT NULL, last_error VARCHAR DEFAULT('') NOT NULL, last_error_at BIGINT, created_at BIGINT NOT NULL)`,
  `CREATE TABLE "comments"(id INTEGER DEFAULT(nextval('comment_id_seq')) PRIMARY KEY, session_id INTEGER NOT NULL, when_ms BIGINT NOT NULL, "text" VARCHAR NOT NULL, "type" INTEGER DEFAULT(0) NOT NULL, extra_attributes_json VARCHAR DEFAULT('') NOT NULL, created_by INTEGER, updated_at BIGINT NOT NULL)`,
  `CREATE TABLE configurations(id INTEGER DEFAULT(nextval('configuration_id_seq')) PRIMARY KEY, "name" VARCHAR NOT NULL, description VARCHAR DEFAULT('') NOT NULL, warn DOUBLE DEFAULT(100) NOT NULL, bad DOUBLE DEFAULT(250) NOT NULL, scale DOUBLE DEFAULT(100) NOT NULL, engine_json VARCHAR DEFAULT('{}') NOT NULL, account_id INTEGER DEFAULT(1), "position" INTEGER DEFAULT(0))`,
  `CREATE TABLE feedback_answers(id INTEGER DEFAULT(nextval('feedback_answer_id_seq')) NOT NULL, kind VARCHAR NOT NULL, item_id INTEGER NOT NULL, account_id INTEGER NOT NULL, staff_user_id INTEGER NOT NULL, staff_name VARCHAR NOT NULL, "text" VARCHAR NOT NULL, mailed BOOLEAN NOT NULL, mail_problem VARCHAR DEFAULT('') NOT NULL, created_at BIGINT NOT NULL)`,
  `CREATE TABLE hop_hosts(session_id INTEGER NOT NULL, hop SMALLINT NOT NULL, address VARCHAR NOT NULL, "minute" DOUBLE NOT NULL, answers INTEGER NOT NULL, details VARCHAR)`,
  `CREATE TABLE hosts(session_id INTEGER, hop SMALLINT, address VARCHAR DEFAULT('') NOT NULL, dns_name VARCHAR DEFAULT('') NOT NULL, "name" VARCHAR DEFAULT('') NOT NULL, notes VARCHAR DEFAULT('') NOT NULL, updated_at BIGINT NOT NULL, PRIMARY KEY(session_id, hop))`,
  `CREATE TABLE impersonation_audit(id BIGINT DEFAULT(nextval('impersonation_audit_id_seq')) PRIMARY KEY, occurred_at TIMESTAMP WITH TIME ZONE DEFAULT(now()) NOT NULL, account_id INTEGER NOT NULL, actor_user_id INTEGER NOT NULL, actor_name VARCHAR NOT NULL, as_user_id INTEGER NOT NULL, as_name VARCHAR NOT NULL, "action" VARCHAR NOT NULL, detail VARCHAR DEFAULT('') NOT NULL, status INTEGER DEFAULT(0) NOT NULL, address VARCHAR DEFAULT('') NOT NULL)`,
  `CREATE TABLE impersonations(token_hash VARCHAR NOT NULL, actor_user_id INTEGER NOT NULL, as_user_id INTEGER NOT NULL, address VARCHAR NOT NULL, started_at TIMESTAMP WITH TIME ZONE DEFAULT(now()) NOT NULL)`,
  `CREATE TABLE imported_sessions(session_id INTEGER PRIMARY KEY, imported_at BIGINT NOT NULL)`,
  `CREATE TABLE insight_feedback(id INTEGER DEFAULT(nextval('insight_feedback_id_seq')) PRIMARY KEY, account_id INTEGER NOT NULL, user_id INTEGER NOT NULL, session_id VARCHAR NOT NULL, rating TINYINT NOT NULL, "comments" VARCHAR NOT NULL, help_requested BOOLEAN NOT NULL, context_json VARCHAR NOT NULL, created_at BIGINT NOT NULL)`,
  `CREATE TABLE kvp(account_id INTEGER, user_id INTEGER, "scope" TINYINT, "key" VARCHAR, "value" VARCHAR NOT NULL, PRIMARY KEY(account_id, user_id, "scope", "key"))`,
  `CREATE TABLE liveshare_history(id BIGINT DEFAULT(nextval('liveshare_history_id_seq')) PRIMARY KEY, link_id INTEGER NOT NULL, share_id VARCHAR NOT NULL, account_id INTEGER NOT NULL, happened_at BIGINT NOT NULL, address VARCHAR NOT NULL, "action" VARCHAR NOT NULL, log_text VARCHAR NOT NULL)`,
  `CREATE TABLE liveshare_links(id INTEGER DEFAULT(nextval('liveshare_link_id_seq')) PRIMARY KEY, share_id VARCHAR NOT NULL UNIQUE, pw_digest VARCHAR NOT NULL, pw_sealed VARCHAR NOT NULL, description VARCHAR NOT NULL, notes VARCHAR DEFAULT('') NOT NULL, active BOOLEAN DEFAULT(CAST('t' AS BOOLEAN)) NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT, summary_ref VARCHAR NOT NULL, target_ref VARCHAR DEFAULT('') NOT NULL, account_id INTEGER NOT NULL, created_by VARCHAR NOT NULL)`,
  `CREATE TABLE login_sessions(token_hash VARCHAR PRIMARY KEY, user_id INTEGER NOT NULL, "persistent" BOOLEAN NOT NULL, created_at TIMESTAMP WITH TIME ZONE DEFAULT(now()) NOT NULL, expires_at TIMESTAMP WITH TIME ZONE NOT NULL)`,
  `CREATE TABLE mail_settings("name" VARCHAR PRIMARY KEY, "value" VARCHAR NOT NULL, updated_at BIGINT NOT NULL)`,
  `CREATE TABLE notifications(id BIGINT DEFAULT(nextval('notification_id_seq')) PRIMARY KEY, alert_id INTEGER NOT NULL, action_id INTEGER NOT NULL, session_id INTEGER NOT NULL, "event" VARCHAR NOT NULL, variables_json VARCHAR NOT NULL, status VARCHAR NOT NULL, attempts INTEGER DEFAULT(0) NOT NULL, next_attempt_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, answer VARCHAR DEFAULT('') NOT NULL, created_at BIGINT NOT NULL, done_at BIGINT)`,
  `CREATE TABLE outage_periods(kind VARCHAR NOT NULL, agent_id INTEGER DEFAULT(0) NOT NULL, started_at BIGINT NOT NULL, ended_at BIGINT)`,
  `CREATE TABLE rollup_marks(resolution INTEGER, session_id INTEGER, closed_until DOUBLE NOT NULL, PRIMARY KEY(resolution, session_id))`,
  `CREATE TABLE rollups(resolution INTEGER NOT NULL, session_id INTEGER NOT NULL, "time" DOUBLE NOT NULL, hop SMALLINT NOT NULL, count INTEGER NOT NULL, lost INTEGER NOT NULL, sum BIGINT NOT NULL, min INTEGER, max INTEGER, "first" INTEGER, last_valid INTEGER, jitter_sum BIGINT NOT NULL, jitter_pairs INTEGER NOT NULL, "last" INTEGER, flags INTEGER NOT NULL)`,
  `CREATE TABLE route_changes(session_id INTEGER NOT NULL, "time" BIGINT NOT NULL, hop SMALLINT NOT NULL, old_address VARCHAR NOT NULL, new_address VARCHAR NOT NULL)`,
  `CREATE TABLE sample_packing(session_id INTEGER NOT NULL, packed_until DOUBLE NOT NULL)`,
  `CREATE TABLE sample_tallies(session_id INTEGER NOT NULL, samples INTEGER NOT NULL, first_sample DOUBLE NOT NULL, latest_sample DOUBLE NOT NULL)`,
  `CREATE TABLE samples(session_id INTEGER NOT NULL, "time" BIGINT NOT NULL, hop SMALLINT NOT NULL, latency INTEGER NOT NULL)`,
  `CREATE TABLE server_runs(started_at BIGINT PRIMARY KEY, alive_at BIGINT NOT NULL)`,
  `CREATE TABLE sessions(id INTEGER DEFAULT(nextval('session_id_seq')) PRIMARY KEY, account_id INTEGER NOT NULL, original_target VARCHAR NOT NULL, target_name VARCHAR NOT NULL, target_ip VARCHAR NOT NULL, description VARCHAR DEFAULT('') NOT NULL, state TINYINT NOT NULL, persistence_mode TINYINT DEFAULT(0) NOT NULL, dynamic_dns_mode TINYINT NOT NULL, collector_mode TINYINT DEFAULT(0) NOT NULL, sentinel_id INTEGER DEFAULT(-1) NOT NULL, configuration_id INTEGER DEFAULT(1) NOT NULL, trace_interval_ms INTEGER NOT NULL, final_hop_only BOOLEAN DEFAULT(CAST('f' AS BOOLEAN)) NOT NULL, created_by INTEGER, start_time BIGINT NOT NULL, end_time BIGINT, first_sample BIGINT, latest_sample BIGINT, sample_count BIGINT DEFAULT(0) NOT NULL)`,
  `CREATE TABLE sidekick(account_id INTEGER PRIMARY KEY, stage SMALLINT NOT NULL, summary_id INTEGER NOT NULL, agent_id INTEGER NOT NULL, started_at BIGINT NOT NULL)`,
  `CREATE TABLE sidekick_targets(account_id INTEGER, "position" SMALLINT, kind VARCHAR NOT NULL, original_target VARCHAR NOT NULL, session_id INTEGER, "label" VARCHAR NOT NULL, description VARCHAR NOT NULL, not_found_reason VARCHAR DEFAULT('') NOT NULL, PRIMARY KEY(account_id, "position"))`,
  `CREATE TABLE sign_in_sessions(id INTEGER DEFAULT(nextval('sign_in_session_id_seq')) NOT NULL, token_hash VARCHAR NOT NULL, user_id INTEGER NOT NULL, account_id INTEGER NOT NULL, address VARCHAR NOT NULL, user_agent VARCHAR NOT NULL, "persistent" BOOLEAN NOT NULL, signed_in_at TIMESTAMP WITH TIME ZONE DEFAULT(now()) NOT NULL, revoked_at TIMESTAMP WITH TIME ZONE, revoked_by VARCHAR DEFAULT('') NOT NULL)`,
  `CREATE TABLE storage_settings("name" VARCHAR PRIMARY KEY, "value" VARCHAR NOT NULL, updated_at BIGINT NOT NULL)`,
  `CREATE TABLE summaries(id INTEGER DEFAULT(nextval('summary_id_seq')) PRIMARY KEY, account_id INTEGER NOT NULL, "name" VARCHAR NOT NULL, is_all_targets BOOLEAN DEFAULT(CAST('f' AS BOOLEAN)) NOT NULL, created_by INTEGER, created_at BIGINT NOT NULL)`,
  `CREATE TABLE summary_members(summary_id INTEGER, session_id INTEGER, added_at BIGINT NOT NULL, PRIMARY KEY(summary_id, session_id))`,
  `CREATE TABLE support_tickets(id INTEGER DEFAULT(nextval('support_ticket_id_seq')) PRIMARY KEY, account_id INTEGER NOT NULL, user_id INTEGER NOT NULL, "name" VARCHAR NOT NULL, email VARCHAR NOT NULL, problem_statement VARCHAR NOT NULL, error_log VARCHAR NOT NULL, created_at BIGINT NOT NULL)`,
  `CREATE TABLE user_events(id BIGINT DEFAULT(nextval('user_event_id_seq')) NOT NULL, occurred_at TIMESTAMP WITH TIME ZONE DEFAULT(now()) NOT NULL, account_id INTEGER NOT NULL, user_id INTEGER NOT NULL, kind VARCHAR NOT NULL, "method" VARCHAR DEFAULT('') NOT NULL, route VARCHAR DEFAULT('') NOT NULL, status INTEGER DEFAULT(0) NOT NULL, address VARCHAR DEFAULT('') NOT NULL, detail VARCHAR DEFAULT('') NOT NULL)`,
  `CREATE TABLE users(id INTEGER DEFAULT(nextval('user_id_seq')) PRIMARY KEY, account_id INTEGER NOT NULL, "name" VARCHAR NOT NULL, email VARCHAR NOT NULL, password_hash VARCHAR NOT NULL, roles VARCHAR[] DEFAULT('{}') NOT NULL, is_root BOOLEAN DEFAULT(CAST('f' AS BOOLEAN)) NOT NULL, temp_password BOOLEAN DEFAULT(CAST('f' AS BOOLEAN)) NOT NULL, created_at TIMESTAMP WITH TIME ZONE DEFAULT(now()) NOT NULL, FOREIGN KEY (account_id) REFERENCES accounts(id))`,
  `CREATE INDEX liveshare_history_link ON liveshare_history(link_id)`,
  `CREATE INDEX notifications_status ON notifications(status)`,
  `CREATE UNIQUE INDEX users_name_lower ON users((lower("name")))`,
  `INSERT INTO configurations (name, description) VALUES ('Default', 'Default settings')`,
  // DuckDB's view uses SELECT * REPLACE (...), which PostgreSQL does not have: the columns by name.
  `CREATE VIEW sessions_counted AS
   SELECT s.id, s.account_id, s.original_target, s.target_name, s.target_ip, s.description, s.state, s.persistence_mode,
          s.dynamic_dns_mode, s.collector_mode, s.sentinel_id, s.configuration_id, s.trace_interval_ms, s.final_hop_only,
          s.created_by, s.start_time, s.end_time,
          least(s.first_sample, t.first_sample) AS first_sample,
          greatest(s.latest_sample, t.latest_sample) AS latest_sample,
          s.sample_count + coalesce(t.samples, 0) AS sample_count
   FROM sessions s LEFT JOIN (
     SELECT session_id, sum(samples)::BIGINT AS samples, min(first_sample)::BIGINT AS first_sample,
            max(latest_sample)::BIGINT AS latest_sample
     FROM sample_tallies GROUP BY session_id) t ON t.session_id = s.id`,
];
