class Conn:
    def execute(self, query):
        print("Conn.execute", query)


class Db:
    def __init__(self):
        self.conn = Conn()


class App:
    def __init__(self):
        self.db = Db()


app = App()
app.db.conn.execute("select 1")
