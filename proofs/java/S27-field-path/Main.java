class Conn {
    void execute(String query) {
        System.out.println("Conn.execute " + query);
    }
}

class Db {
    Conn conn = new Conn();
}

class App {
    Db db = new Db();
}

public class Main {
    public static void main(String[] args) {
        App app = new App();
        app.db.conn.execute("select 1");
    }
}
