/* A student's one-move program in C: it reads the board with fscanf, writes
   no final newline and exits 1 after a good move, as the course's starter
   does. A test fixture of maxconnect4 (tests/it/students.rs). */
#include <stdio.h>
int main(int argc, char **argv) {
    char rows[6][16]; int player, row, column;
    FILE *input = fopen(argv[2], "r");
    for (row = 0; row < 6; row++) fscanf(input, "%15s", rows[row]);
    fscanf(input, "%d", &player);
    fclose(input);
    for (column = 0; column < 7; column++)
        for (row = 5; row >= 0; row--)
            if (rows[row][column] == '0') { rows[row][column] = '0' + player; goto played; }
played:;
    FILE *output = fopen(argv[3], "w");
    for (row = 0; row < 6; row++) fprintf(output, "%s\n", rows[row]);
    fprintf(output, "%d", 3 - player);
    fclose(output);
    return 1; /* as the course's starter does after a good move */
}
