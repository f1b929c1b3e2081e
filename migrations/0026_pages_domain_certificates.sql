-- Whether a custom domain's certificate was ordered by the gateway for that domain (rather than
-- chosen): such a certificate is deleted once its domain no longer uses it and nothing else does.
alter table pages_domains add column certificate_ordered boolean not null default false;
