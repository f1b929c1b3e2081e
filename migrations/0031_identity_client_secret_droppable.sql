-- A provider whose issuer moved without its client secret being sent again keeps no secret (the
-- secret is sent only to the issuer it was given for) and signs nobody in until one is sent.
alter table identity_providers alter column client_secret_sealed drop not null;
