class Tools {
    static void run() {
        System.out.println("default-package Tools.run");
    }
}
