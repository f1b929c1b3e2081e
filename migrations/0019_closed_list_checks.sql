-- Two closed lists that the schema declares but the database did not enforce: the upload failure
-- reasons and the completion modes of OAuth sessions. Every value the gateway writes is in them.
alter table node_uploads
  add constraint node_uploads_failure_reason_check
  check (failure_reason in ('CHECKSUM_MISMATCH', 'TEMP_DATA_LOST', 'EXPIRED'));
alter table inference_oauth_sessions
  add constraint inference_oauth_sessions_completion_mode_check
  check (completion_mode in ('device_poll', 'paste_callback'));
