-- Team ledger on PostgreSQL: the database and its roles, as plain SQL. The supported way is the app's tool, which
-- does this and the rest (schema, analysts, TLS check) without a password on the command line:
--
--   node team-ledger.cjs setup --host db.example.com --user postgres --ca team-ca.crt --analyst ana_souza
--
-- (docs/TEAM-LEDGER.md). This file stays for a DBA who reviews or runs the SQL by hand, as a superuser (or a role
-- with CREATEROLE and CREATEDB):
--
--   psql -h db.example.com -U postgres -v owner_password="$(cat owner.pw)" -f setup.sql
--
-- (the password is then briefly in the process list: on a shared machine create the role without it and use
-- psql's `\password depix_owner`, which asks without echo and sends only a hash). It creates
--   depix_owner     the role that owns the database and the `ledger` schema and applies the app's migrations
--                   (`team-ledger migrate`);
--   depix_analysts  a group role (no login) holding the analysts' privileges, granted by the migrations;
--   depix_team      the database.
-- The analysts' privileges are exactly what the migrations grant to depix_analysts.
\set ON_ERROR_STOP on

CREATE ROLE depix_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE depix_analysts NOLOGIN;
CREATE DATABASE depix_team OWNER depix_owner ENCODING 'UTF8' TEMPLATE template0;
REVOKE ALL ON DATABASE depix_team FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE depix_team TO depix_analysts;

\connect depix_team
-- Nobody but the owner creates objects in this database.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;

-- Analysts, the approval threshold and the team rate allowance are managed with the tool, which records every
-- change in the team's audit trail (who, when, before -> after; migration 14):
--
--   team-ledger analyst add ana_souza | analyst remove ana_souza | threshold 5.000,00 | threshold off
--   team-ledger rate withdraw 6
--
-- One role per person (the audit log names the role, so never share one). A threshold or rate changed by a
-- plain UPDATE as the owner is recorded too (a trigger on the column); a role changed by hand is not.
