// The email metrics query lives in lib (the dashboard reads it too).
export {
  EMAIL_METRICS_PATH,
  emailMetricsQueryOptions,
  getEmailMetrics,
  useEmailMetrics,
  type TEmailMetricsRange,
} from '../../../lib/email-metrics';
