// A student's one-move program in Java: a package, several classes, CRLF
// line endings. A test fixture of maxconnect4 (tests/it/students.rs).
package game;

class Board {
    static void play(char[][] rows, char player) {
        for (int column = 0; column < 7; column++)
            for (int row = 5; row >= 0; row--)
                if (rows[row][column] == '0') { rows[row][column] = player; return; }
    }
}
