package org.fjm2.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.fjm2.admin.testing.AdminContainers;
import org.fjm2.admin.testing.AdminHttp;
import org.fjm2.admin.testing.AdminServer;
import org.fjm2.admin.testing.EmbeddedTomcat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Load on the running WAR over loopback: {@value #REGISTRATIONS} registrations sent all at once, then
 * {@value #READS} list reads ({@value #READ_CONCURRENCY} in flight). None may fail or be lost. Latencies go
 * through HdrHistogram; the table is printed and written to target/admin-load.csv. The numbers are reported,
 * not asserted: this machine is shared.
 */
class AdminLoadIT {

    static final int REGISTRATIONS = 500;
    static final int READS = 5_000;
    static final int READ_CONCURRENCY = 32;

    @TempDir
    Path dir;

    record Phase(String name, int requests, int failures, Histogram micros, long nanos) {
        String csv() {
            return String.format(Locale.ROOT, "%s,%d,%d,%.3f,%.3f,%.3f,%.3f,%.0f", name, requests, failures,
                    ms(50), ms(90), ms(99), micros.getMaxValue() / 1000.0, requests / (nanos / 1e9));
        }

        double ms(double percentile) {
            return micros.getValueAtPercentile(percentile) / 1000.0;
        }
    }

    @Test
    void concurrentRegistrationsAndReadsLoseNothing() throws Exception {
        try (DatagramSocket sink = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             AdminServer server = EmbeddedTomcat.deploy(dir.resolve("tomcat"), Map.of(
                     AdminSettings.TOKEN_FILE, AdminContainers.tokenFile(dir, AdminApiContract.TOKEN).toString(),
                     AdminSettings.DATA_DIR, dir.resolve("data").toString(),
                     AdminSettings.ALLOW_LOOPBACK, "true"))) {
            AdminHttp http = new AdminHttp(server.baseUri(), AdminApiContract.TOKEN);
            HttpClient client = http.client();
            warmUp(http);

            // Every node's advertisement goes to our own socket, never to another program's port.
            int port = sink.getLocalPort();
            List<HttpRequest> registrations = new ArrayList<>();
            for (int i = 0; i < REGISTRATIONS; i++) {
                registrations.add(http.request("api/nodes").header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"id\":\"load-" + i + "\",\"host\":\"127.0.0.1\",\"port\":" + port + "}")).build());
            }
            Phase register = run("register", client, registrations, REGISTRATIONS, 201);

            HttpResponse<String> list = http.get("api/nodes");
            JsonNode nodes = AdminApiContract.json(list).get("nodes");
            assertThat(nodes).as("no registration lost").hasSize(REGISTRATIONS);
            long stamp = AdminApiContract.json(list).get("lastModified").asLong();

            List<HttpRequest> reads = new ArrayList<>();
            for (int i = 0; i < READS; i++) {
                reads.add(http.request("api/nodes").GET().build());
            }
            Phase read = run("list", client, reads, READ_CONCURRENCY, 200);
            assertThat(register.failures()).as("failed registrations").isZero();
            assertThat(read.failures()).as("failed reads").isZero();
            assertThat(AdminApiContract.json(http.get("api/nodes")).get("lastModified").asLong()).isEqualTo(stamp);

            String header = "phase,requests,failures,p50_ms,p90_ms,p99_ms,max_ms,requests_per_s";
            List<String> lines = List.of(header, register.csv(), read.csv());
            Path csv = Path.of(System.getProperty("fjm2.test.output", dir.toString()), "admin-load.csv");
            Files.write(csv, lines);
            System.out.println("FJM2-Admin load test (" + server.container() + ", loopback), written to " + csv);
            lines.forEach(System.out::println);
        }
    }

    private static void warmUp(AdminHttp http) {
        for (int i = 0; i < 200; i++) {
            assertThat(http.get("api/nodes").statusCode()).isEqualTo(200);
        }
    }

    /** Sends every request with at most {@code concurrency} in flight; counts answers other than {@code ok}. */
    private static Phase run(String name, HttpClient client, List<HttpRequest> requests, int concurrency, int ok)
            throws InterruptedException {
        Histogram micros = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(1), 3);
        AtomicInteger failures = new AtomicInteger();
        Semaphore inFlight = new Semaphore(concurrency);
        List<CompletableFuture<?>> all = new ArrayList<>(requests.size());
        long start = System.nanoTime();
        for (HttpRequest request : requests) {
            inFlight.acquire();
            long sent = System.nanoTime();
            all.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
                micros.recordValue(Math.min(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - sent),
                        micros.getHighestTrackableValue()));
                if (error != null || response.statusCode() != ok) {
                    failures.incrementAndGet();
                    System.out.println(name + " failed: " + (error != null ? error : response.statusCode() + " "
                            + response.body()));
                }
                inFlight.release();
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).exceptionally(e -> null)
                .orTimeout(5, TimeUnit.MINUTES).join();
        return new Phase(name, requests.size(), failures.get(), micros, System.nanoTime() - start);
    }

}
