// A one-move player in Java for the referee's tests: plays the leftmost
// column with room, as bot.py's `valid` does, so that a test sees a JVM
// (its reserved memory, its threads, its start-up CPU time) play whole
// games under the referee's default limits.
//
// Usage: java -classpath DIR Leftmost IN OUT

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public class Leftmost {
    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        char[][] rows = new char[6][];
        for (int row = 0; row < 6; row++) {
            rows[row] = lines.get(row).trim().toCharArray();
        }
        char me = lines.get(6).trim().charAt(0);
        play:
        for (int column = 0; column < 7; column++) {
            for (int row = 5; row >= 0; row--) {
                if (rows[row][column] == '0') {
                    rows[row][column] = me;
                    break play;
                }
            }
        }
        StringBuilder out = new StringBuilder();
        for (char[] row : rows) {
            out.append(row).append('\n');
        }
        out.append(me == '1' ? '2' : '1').append('\n');
        Files.writeString(Path.of(args[1]), out);
    }
}
