package org.fjm2.bench.cc;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A bulk TCP flow for {@code fjm2 bench cc}: {@code sink PORT SECONDS} accepts one connection and reads until it
 * ends, printing {@code TCPSTAT t=<monotonic seconds> bytes=<count>} every 100 ms (the clock of
 * {@link System#nanoTime()}, shared by the processes of one machine); {@code source HOST:PORT SECONDS} writes as fast
 * as the connection takes for that long. The competing flow NORM-CC is to share a bottleneck with fairly.
 */
public final class TcpFlowMain {

    static final int CHUNK = 64 * 1024;
    static final long REPORT_NANOS = 100_000_000L;

    private TcpFlowMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3 || !(args[0].equals("sink") || args[0].equals("source"))) {
            System.err.println("usage: TcpFlowMain sink PORT SECONDS | source HOST:PORT SECONDS");
            System.exit(2);
        }
        long end = System.nanoTime() + (long) (Double.parseDouble(args[2]) * 1e9);
        byte[] buffer = new byte[CHUNK];
        if (args[0].equals("sink")) {
            try (ServerSocket server = new ServerSocket(Integer.parseInt(args[1]))) {
                System.out.println("READY role=sink");
                try (Socket s = server.accept(); InputStream in = s.getInputStream()) {
                    long bytes = 0;
                    long next = System.nanoTime();
                    int n;
                    while ((n = in.read(buffer)) >= 0 && System.nanoTime() - end < 0) {
                        bytes += n;
                        long now = System.nanoTime();
                        if (now - next >= 0) {
                            System.out.printf("TCPSTAT t=%.6f bytes=%d%n", now / 1e9, bytes);
                            next += REPORT_NANOS;
                        }
                    }
                }
            }
        } else {
            String[] target = args[1].split(":");
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(target[0], Integer.parseInt(target[1])), 10_000);
                OutputStream out = s.getOutputStream();
                System.out.println("READY role=source");
                while (System.nanoTime() - end < 0) {
                    out.write(buffer);
                }
            }
        }
        System.out.println("DONE");
        System.exit(0);
    }
}
