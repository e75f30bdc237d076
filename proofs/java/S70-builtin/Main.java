public class Main {
    public static void main(String[] args) {
        System.out.println(Math.max(3, 7));
        System.out.println(String.valueOf(42).length());
        System.out.println(Integer.parseInt("17") + 1);
        StringBuilder sb = new StringBuilder();
        sb.append("a").append(1);
        System.out.println(sb);
    }
}
