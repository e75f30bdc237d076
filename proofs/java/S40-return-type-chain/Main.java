class Repo {
    void save(String item) {
        System.out.println("Repo.save " + item);
    }
}

class Service {
    private final Repo repo = new Repo();

    Repo getRepo() {
        return repo;
    }
}

public class Main {
    static Service service() {
        return new Service();
    }

    public static void main(String[] args) {
        Service svc = new Service();
        svc.getRepo().save("order");
        service().getRepo().save("invoice");
    }
}
