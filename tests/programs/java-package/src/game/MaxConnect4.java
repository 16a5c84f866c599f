// A student's one-move program in Java: a package, several classes, CRLF
// line endings. A test fixture of maxconnect4 (tests/it/students.rs).
package game;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

public class MaxConnect4 {
    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Paths.get(args[1]));
        char[][] rows = new char[6][];
        for (int row = 0; row < 6; row++) rows[row] = lines.get(row).trim().toCharArray();
        char player = lines.get(6).trim().charAt(0);
        Board.play(rows, player);
        try (PrintWriter output = new PrintWriter(args[2])) {
            for (char[] row : rows) output.print(new String(row) + "\r\n");
            output.print((player == '1' ? '2' : '1') + "\r\n");
        }
    }
}
