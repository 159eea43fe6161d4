// The CPU one Ed25519 verification costs with the JDK's own provider (issue 35's signed imports).
// Run:  java bench/signatures/Ed25519Cost.java [N]      (JDK 21+; N signatures, verified three times)
import java.security.*;
public class Ed25519Cost {
  public static void main(String[] a) throws Exception {
    KeyPair kp = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    int n = a.length > 0 ? Integer.parseInt(a[0]) : 5000;
    byte[][] msg = new byte[n][]; byte[][] sig = new byte[n][];
    Signature s = Signature.getInstance("Ed25519");
    for (int i = 0; i < n; i++) { msg[i] = ("\"@authority\": example.com\n\"@path\": /p/" + i).getBytes(); s.initSign(kp.getPrivate()); s.update(msg[i]); sig[i] = s.sign(); }
    for (int r = 0; r < 3; r++) {
      long t0 = System.nanoTime(); long cpu0 = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
      Signature v = Signature.getInstance("Ed25519");
      for (int i = 0; i < n; i++) { v.initVerify(kp.getPublic()); v.update(msg[i]); if (!v.verify(sig[i])) throw new Error(); }
      long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0;
      System.out.printf("round %d: %d verifications, thread CPU %.0f ms (%.0f us each), wall %.0f ms%n", r, n, cpu/1e6, cpu/1e3/n, (System.nanoTime()-t0)/1e6);
    }
  }
}
