#!/bin/sh
# OPTIONAL container recipe (compose.yaml): a private CA, a server certificate for the names "db" (inside
# compose) and "localhost" (from this machine), and random passwords, each in its own file. Run once.
set -eu
cd "$(dirname "$0")"
umask 077
mkdir -p certs secrets
openssl req -x509 -newkey rsa:3072 -nodes -days 825 -subj "/CN=Team ledger CA (trial)" \
  -keyout certs/ca.key -out certs/ca.crt
openssl req -newkey rsa:3072 -nodes -subj "/CN=db" -keyout certs/server.key -out certs/server.csr
printf 'subjectAltName = DNS:db, DNS:localhost\n' > certs/ext.cnf
openssl x509 -req -in certs/server.csr -CA certs/ca.crt -CAkey certs/ca.key -CAcreateserial -days 825 \
  -extfile certs/ext.cnf -out certs/server.crt
chmod 644 certs/ca.crt certs/server.crt
for who in postgres owner ana; do
  [ -f "secrets/$who.pw" ] || openssl rand -base64 24 > "secrets/$who.pw"
done
echo "certs/ and secrets/ ready; keep certs/ca.key and secrets/ private."
