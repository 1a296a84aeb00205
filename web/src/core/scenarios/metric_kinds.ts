// The metrics a replay's row (or a placeholder in its texts) may name, from schema.json's
// enum, and which of them read one application, one host's stack or one link's capture
// (web/src/core/replay/metrics.ts measures them).

import schemaJson from './schema.json';
import type { ReferenceRow } from './schema_types.ts';

export type MetricName = ReferenceRow['metric'];

/** Every metric, in schema.json's order. */
export const METRIC_NAMES: readonly MetricName[] = schemaJson.$defs.reference_row.properties.metric.enum as MetricName[];

/** Metrics that read one application (`app` required), and those that read a host's stack. */
export const APP_METRICS: ReadonlySet<MetricName> = new Set(['ping_rtt_avg_ms', 'ping_rtt_min_ms', 'ping_rtt_max_ms', 'app_kbps', 'app_mbps', 'app_elapsed_s']);
export const HOST_METRICS: ReadonlySet<MetricName> = new Set([
  'retransmissions',
  'dup_acks',
  'dup_acks_sent',
  'spurious_retransmissions',
  'rto_first_data_ms',
  'rto_expiries',
]);
/** Metrics that read one link's capture (`link` required). */
export const LINK_METRICS: ReadonlySet<MetricName> = new Set(['capture_span_s', 'link_frames']);
