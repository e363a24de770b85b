-- Team ledger on PostgreSQL: the database and its roles. Run once, as a superuser (or a role with CREATEROLE and
-- CREATEDB), with psql:
--
--   psql -h db.example.com -U postgres -v owner_password='a-long-secret' -f setup.sql
--
-- It creates
--   depix_owner     the role that owns the database and the `ledger` schema and applies the app's migrations
--                   with `npx tsx src/main/ledger-store/cli.ts migrate` (libpq PG* variables, see cli.ts);
--   depix_analysts  a group role (no login) holding the analysts' privileges, granted by the migrations;
--   depix_team      the database.
-- The analysts' privileges are exactly what the migrations grant to depix_analysts: read everything, insert and
-- update payment records, insert status observations, request and decide approvals, write the audit log only
-- through ledger.append_audit. Nobody may delete a record or change an audit entry.
\set ON_ERROR_STOP on

CREATE ROLE depix_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE depix_analysts NOLOGIN;
CREATE DATABASE depix_team OWNER depix_owner ENCODING 'UTF8' TEMPLATE template0;
REVOKE ALL ON DATABASE depix_team FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE depix_team TO depix_analysts;

\connect depix_team
-- Nobody but the owner creates objects in this database.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;

-- Adding an analyst: one role per person (the audit log names the role, so never share one), member of the
-- group. Their desk connects with this role and password (kept in the desk's vault), over TLS:
--
--   CREATE ROLE ana_souza LOGIN PASSWORD 'her-own-secret' IN ROLE depix_analysts;
--
-- Removing one keeps everything they recorded:
--
--   REVOKE depix_analysts FROM ana_souza;  ALTER ROLE ana_souza NOLOGIN;
--
-- Four-eyes approval (as depix_owner): payments above R$ 5.000,00 wait for another analyst's approval
--
--   UPDATE ledger.team_settings SET approval_above_cents = 500000;   -- 0: every payment; NULL: off
--
-- A team rate allowance below the contract's limits (as depix_owner), e.g. 6 withdrawals a minute for all desks:
--
--   UPDATE ledger.rate_buckets SET per_minute = 6, tokens = least(tokens, 6) WHERE endpoint = 'withdraw';
