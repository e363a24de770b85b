// node-postgres's own libpq password-file reader (a dependency of pg), typed for the owner's tool.
declare module 'pgpass' {
  function pgpass(
    connInfo: { host: string; port: string; database: string; user: string },
    cb: (password?: string) => void,
  ): void
  export default pgpass
}
