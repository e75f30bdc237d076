class Conn {
  execute(sql: string): string {
    return "ran " + sql;
  }
}

class Db {
  conn: Conn = new Conn();
}

class App {
  db: Db = new Db();
}

const app = new App();
console.log(app.db.conn.execute("select 1"));
