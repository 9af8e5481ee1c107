// The course-style tests of the Java class bench (java-class.sh,
// JAVA_CLASS_ONLY=junit).
import static org.junit.Assert.*;
import java.io.*;
import java.util.*;
import java.util.regex.*;
import org.junit.Test;

/** The course-style tests of the MOOC exercise: Main.main run in this JVM
 *  on each input, its output's numbers checked by key, as the bench's
 *  checkers do (the last number on the first line naming the key). */
public class MoocTest {
    static final String[] INPUTS = {"5\n2\n4\n-1\n", "-1\n", "7\n-1\n", "3\n3\n3\n-1\n",
        "10\n-5\n8\n-1\n", "1\n2\n3\n4\n5\n6\n-1\n", "100\n-1\n4\n5\n"};

    static Map<String, Double> values(String out) {
        Map<String, Double> found = new HashMap<>();
        Pattern num = Pattern.compile("-?\\d+(?:\\.\\d+)?");
        for (String line : out.split("\n")) {
            String low = line.toLowerCase();
            for (String key : new String[] {"sum", "count", "average", "even", "odd"}) {
                if (!low.contains(key) || found.containsKey(key)) continue;
                Matcher m = num.matcher(line);
                String last = null;
                while (m.find()) last = m.group();
                if (last != null) found.put(key, Double.parseDouble(last));
            }
        }
        return found;
    }

    static Map<String, Double> expected(String input) {
        long sum = 0, count = 0, even = 0, odd = 0;
        for (String l : input.split("\n")) {
            int n = Integer.parseInt(l.trim());
            if (n == -1) break;
            sum += n; count++;
            if (n % 2 == 0) even++; else odd++;
        }
        Map<String, Double> m = new HashMap<>();
        // The model prints "Numbers:", not "count": the checkers judge no count.
        m.put("sum", (double) sum);
        if (count > 0) m.put("average", 1.0 * sum / count);
        m.put("even", (double) even); m.put("odd", (double) odd);
        return m;
    }

    static String run(String input) throws Exception {
        InputStream in = System.in;
        PrintStream out = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try {
            System.setIn(new ByteArrayInputStream(input.getBytes("UTF-8")));
            System.setOut(new PrintStream(buf, true, "UTF-8"));
            Main.main(new String[0]);
        } finally {
            System.setIn(in);
            System.setOut(out);
        }
        return buf.toString("UTF-8");
    }

    static void check(String input, String... keys) throws Exception {
        Map<String, Double> exp = expected(input), act = values(run(input));
        for (String k : keys) {
            if (!exp.containsKey(k)) continue;
            assertTrue(k + " missing", act.containsKey(k));
            assertEquals(k, exp.get(k), act.get(k), 1e-6);
        }
    }

    @Test public void sum1() throws Exception { check(INPUTS[0], "sum"); }
    @Test public void sum2() throws Exception { check(INPUTS[1], "sum"); }
    @Test public void sum3() throws Exception { check(INPUTS[2], "sum"); }
    @Test public void sum4() throws Exception { check(INPUTS[3], "sum"); }
    @Test public void sum5() throws Exception { check(INPUTS[4], "sum"); }
    @Test public void sum6() throws Exception { check(INPUTS[5], "sum"); }
    @Test public void sum7() throws Exception { check(INPUTS[6], "sum"); }
    @Test public void count8() throws Exception { check(INPUTS[0], "count"); }
    @Test public void count9() throws Exception { check(INPUTS[1], "count"); }
    @Test public void count10() throws Exception { check(INPUTS[2], "count"); }
    @Test public void count11() throws Exception { check(INPUTS[3], "count"); }
    @Test public void count12() throws Exception { check(INPUTS[4], "count"); }
    @Test public void count13() throws Exception { check(INPUTS[5], "count"); }
    @Test public void count14() throws Exception { check(INPUTS[6], "count"); }
    @Test public void average15() throws Exception { check(INPUTS[0], "average"); }
    @Test public void average16() throws Exception { check(INPUTS[1], "average"); }
    @Test public void average17() throws Exception { check(INPUTS[2], "average"); }
    @Test public void average18() throws Exception { check(INPUTS[3], "average"); }
    @Test public void average19() throws Exception { check(INPUTS[4], "average"); }
    @Test public void average20() throws Exception { check(INPUTS[5], "average"); }
    @Test public void average21() throws Exception { check(INPUTS[6], "average"); }
    @Test public void parity22() throws Exception { check(INPUTS[0], "even", "odd"); }
    @Test public void parity23() throws Exception { check(INPUTS[1], "even", "odd"); }
    @Test public void parity24() throws Exception { check(INPUTS[2], "even", "odd"); }
    @Test public void parity25() throws Exception { check(INPUTS[3], "even", "odd"); }
    @Test public void parity26() throws Exception { check(INPUTS[4], "even", "odd"); }
    @Test public void parity27() throws Exception { check(INPUTS[5], "even", "odd"); }
    @Test public void parity28() throws Exception { check(INPUTS[6], "even", "odd"); }
    @Test public void stop29() throws Exception { check(INPUTS[0], "sum"); }
    @Test public void stop30() throws Exception { check(INPUTS[1], "sum"); }
    @Test public void stop31() throws Exception { check(INPUTS[2], "sum"); }
    @Test public void stop32() throws Exception { check(INPUTS[3], "sum"); }
    @Test public void stop33() throws Exception { check(INPUTS[4], "sum"); }
    @Test public void stop34() throws Exception { check(INPUTS[5], "sum"); }
    @Test public void stop35() throws Exception { check(INPUTS[6], "sum"); }
}
