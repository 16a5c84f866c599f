// The coordinator starts an engine as `java -classpath DIR Interface`. This
// launcher runs `maxconnect4 bot coordinator` instead (the program named by
// the MAXCONNECT4 environment variable, else `maxconnect4` on the PATH), with
// this process's standard input, output and error handed straight to it, and
// exits with its exit code. Arguments are passed on, e.g. `--name me-c1234567`.
//
// Compile: javac -d DIR adapters/coordinator/Interface.java
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class Interface {
    public static void main(String[] args) throws InterruptedException {
        String program = System.getenv("MAXCONNECT4");
        if (program == null || program.isEmpty()) {
            program = "maxconnect4";
        }
        List<String> command = new ArrayList<>(Arrays.asList(program, "bot", "coordinator"));
        command.addAll(Arrays.asList(args));
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        try {
            Process engine = builder.start();
            System.exit(engine.waitFor());
        } catch (IOException error) {
            System.err.println("error: cannot run " + program + " (set MAXCONNECT4 to the maxconnect4 program): " + error.getMessage());
            System.exit(1);
        }
    }
}
