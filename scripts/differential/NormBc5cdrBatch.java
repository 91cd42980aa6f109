// Runs BC5CDR_Evaluation's Evaluate.main once per stdin line (TAB-separated arguments) in
// one JVM, so a differential run of hundreds of cases does not start a JVM for each
// (norm-compare.ts). The tool's jar is on the class path; nothing of it is copied here.
//   java -cp BC5CDR_EVAL_JAR scripts/differential/NormBc5cdrBatch.java < argument-lines
// Prints, per line, "=== BEGIN", what the tool printed, and "=== END ok" or "=== END crash: …".

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;

public class NormBc5cdrBatch {
  public static void main(String[] args) throws Exception {
    var main = Class.forName("ncbi.bc5cdr_eval.Evaluate").getMethod("main", String[].class);
    var out = System.out;
    var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      var buffer = new ByteArrayOutputStream();
      System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
      String status = "ok";
      try {
        main.invoke(null, (Object) line.split("\t"));
      } catch (InvocationTargetException e) {
        status = "crash: " + e.getCause();
      } finally {
        System.setOut(out);
      }
      out.print("=== BEGIN\n" + buffer.toString(StandardCharsets.UTF_8) + "=== END " + status + "\n");
      out.flush();
    }
  }
}
