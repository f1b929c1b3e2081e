-- A connector whose base URL moved without its token being sent again keeps no token (the token is
-- sent only to the host it was given for) until one is sent: the column may now be empty.
alter table repohost_connectors alter column token_sealed drop not null;
