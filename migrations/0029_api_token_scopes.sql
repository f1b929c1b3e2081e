-- Least privilege for API tokens: a token may be narrowed to some of its user's scopes (null: all).
alter table auth_tokens add column scopes text[];
