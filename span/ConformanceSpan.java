// The span protocol for a Java model solution (docs/span-protocol.md):
// copy this file beside the model's sources (the default package) and
// compile it with them (`javac *.java`). Untraced (no
// CONFORMANCE_PROVENANCE), every call but `install` does nothing and
// stdout is the program's own.
//
//   ConformanceSpan.install();                  // first thing in main
//   ConformanceSpan.enter("DISP-1", "the board"); // what stdout is now
//   System.out.println(board);                   // counted
//   ConformanceSpan.rejected("MOVE-2", "range", "a peg outside 1..3",
//       line, "MOVE-2 rejects it (peg 4)");      // before the answer
//   ConformanceSpan.stopped("FILE-2", "disc", "a disc not in 1..N",
//       "FILE-4", "line 2 of the file");         // before an error stop
//
// The record is written when the JVM ends (System.exit, the end of main,
// an uncaught exception), or by flush(). It is advice for a report: a
// record that cannot be written changes no verdict.

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

public final class ConformanceSpan {
    /** The variable naming the record's file. */
    public static final String ENV = "CONFORMANCE_PROVENANCE";
    private static final int LINE_KEPT = 120;
    private static final int ASIDE_KEPT = 4096;

    private static final String PATH = System.getenv(ENV);
    private static final boolean ON = PATH != null && !PATH.isEmpty();

    private static long at;
    private static String[] context; // {rules, what}
    private static final List<long[]> bounds = new ArrayList<>(); // {start, end}
    private static final List<String[]> labels = new ArrayList<>(); // {rules, what}
    private static final StringBuilder rulings = new StringBuilder();
    private static final StringBuilder asides = new StringBuilder();
    private static boolean installed;

    private ConformanceSpan() {}

    /** Whether the record is kept. */
    public static boolean active() {
        return ON;
    }

    /**
     * Counts every byte of System.out from now on (traced only), and writes
     * the record when the JVM ends. Call it first in main.
     */
    public static synchronized void install() {
        if (!ON || installed) {
            return;
        }
        installed = true;
        OutputStream raw = new FileOutputStream(FileDescriptor.out);
        OutputStream counted = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                raw.write(b);
                wrote(1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                raw.write(b, off, len);
                wrote(len);
            }

            @Override
            public void flush() throws IOException {
                raw.flush();
            }
        };
        System.setOut(new PrintStream(counted, true, StandardCharsets.UTF_8));
        Runtime.getRuntime().addShutdownHook(new Thread(ConformanceSpan::flush));
    }

    /** From now on stdout obeys `rules` (comma-separated IDs) and is `what`. */
    public static synchronized void enter(String rules, String what) {
        if (!ON) {
            return;
        }
        context = new String[] {rules == null || rules.isEmpty() ? "" : word(rules), text(what)};
    }

    /** `n` bytes of stdout were written in the current context. */
    public static synchronized void wrote(long n) {
        if (!ON || n <= 0) {
            return;
        }
        long start = at;
        at += n;
        if (context == null) {
            return;
        }
        int last = bounds.size() - 1;
        if (last >= 0 && bounds.get(last)[1] == start
                && labels.get(last)[0].equals(context[0])
                && labels.get(last)[1].equals(context[1])) {
            bounds.get(last)[1] = at;
        } else {
            bounds.add(new long[] {start, at});
            labels.add(context);
        }
    }

    /** Writes `s` to stdout, counted (as System.out.print does once installed). */
    public static void write(String s) {
        System.out.print(s);
        System.out.flush();
    }

    /** Writes `b` to stdout, counted. */
    public static void write(byte[] b) {
        System.out.write(b, 0, b.length);
        System.out.flush();
    }

    /** An empty span of `rules` here: where the model prints nothing. */
    public static synchronized void empty(String rules, String what) {
        if (!ON) {
            return;
        }
        bounds.add(new long[] {at, at});
        labels.add(new String[] {rules == null || rules.isEmpty() ? "" : word(rules), text(what)});
    }

    /** The model rejected input `line` (without its newline). */
    public static void rejected(String rule, String kind, String says, String line, String detail) {
        note("rejected", rule, kind, says, line.getBytes(StandardCharsets.UTF_8), "", detail);
    }

    /** The model rejected input `line` (its bytes, without the newline). */
    public static void rejected(String rule, String kind, String says, byte[] line, String detail) {
        note("rejected", rule, kind, says, line, "", detail);
    }

    /** The model stops with the message and status of `exitRule`. */
    public static void stopped(String rule, String kind, String says, String exitRule, String detail) {
        note("stopped", rule, kind, says, new byte[0], exitRule, detail);
    }

    /** The model wrote the file `path` obeying `rules`, doing `what`. */
    public static void wroteFile(String path, String rules, String what) {
        aside("file", path.getBytes(StandardCharsets.UTF_8), rules, what);
    }

    /** The model wrote `data` (with its newline) on stderr. */
    public static void wroteStderr(String data, String rules, String what) {
        aside("stderr", data.getBytes(StandardCharsets.UTF_8), rules, what);
    }

    /** Writes the record now (also done when the JVM ends). */
    public static synchronized void flush() {
        if (!ON) {
            return;
        }
        System.out.flush();
        StringBuilder out = new StringBuilder(rulings).append(asides);
        for (int i = 0; i < bounds.size(); i++) {
            out.append(bounds.get(i)[0]).append(' ').append(bounds.get(i)[1]).append(' ')
                .append(labels.get(i)[0]).append('\t').append(labels.get(i)[1]).append('\n');
        }
        try {
            Files.write(Path.of(PATH), out.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            // The record is advice: the harness then finds none.
        }
    }

    private static synchronized void note(String verdict, String rule, String kind, String says,
            byte[] line, String exitRule, String detail) {
        if (!ON) {
            return;
        }
        System.out.flush();
        String hexed = hex(line, LINE_KEPT);
        rulings.append("! ").append(verdict).append(' ').append(at).append(' ').append(word(rule))
            .append(' ').append(word(kind)).append(' ').append(hexed.isEmpty() ? "-" : hexed)
            .append(' ').append(word(exitRule)).append('\t').append(text(says)).append('\t')
            .append(text(detail)).append('\n');
    }

    private static synchronized void aside(String channel, byte[] data, String rules, String what) {
        if (!ON || data.length > ASIDE_KEPT) {
            return;
        }
        System.out.flush();
        String hexed = hex(data, ASIDE_KEPT);
        asides.append("> ").append(channel).append(' ').append(at).append(' ')
            .append(hexed.isEmpty() ? "-" : hexed).append(' ')
            .append(rules == null || rules.isEmpty() ? "" : word(rules)).append('\t')
            .append(text(what)).append('\n');
    }

    private static String hex(byte[] b, int kept) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(b.length, kept); i++) {
            s.append(String.format("%02x", b[i] & 0xff));
        }
        return s.toString();
    }

    /** One field: blanks and control characters made `_`; empty, `-`. */
    private static String word(String s) {
        StringBuilder out = new StringBuilder();
        s.codePoints().forEach(c -> out.appendCodePoint(c <= 0x20 ? '_' : c));
        return out.length() == 0 ? "-" : out.toString();
    }

    /** The last field: tabs and line ends made spaces. */
    private static String text(String s) {
        return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}
