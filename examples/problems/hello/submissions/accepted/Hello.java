import java.util.Scanner;

public class Hello {
    public static void main(String[] args) {
        String name = new Scanner(System.in).nextLine().trim();
        System.out.println("Hello, " + name + "!");
    }
}
