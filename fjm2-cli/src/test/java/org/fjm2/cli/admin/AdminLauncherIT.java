package org.fjm2.cli.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/fjm2 admin} as a user runs it: the launcher script, the packaged jars, the WAR in target/lib. */
class AdminLauncherIT {

    static final String TOKEN = "launcher-token-0123456789abc";
    static final Pattern RUNNING = Pattern.compile("FJM2-Admin is running: (http://\\S+/)");

    @TempDir
    Path dir;

    record Exit(int code, String out, String err) {
    }

    static ProcessBuilder launcher(String... args) {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("fjm2.launcher"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }

    static Exit runToEnd(String... args) throws Exception {
        Process p = launcher(args).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("launcher finished").isTrue();
        return new Exit(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
    }

    static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    Path tokenFile(String perms) throws IOException {
        Path file = dir.resolve("admin-" + perms + ".token");
        Files.writeString(file, TOKEN + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(perms));
        return file;
    }

    @Test
    void helpWorks() throws Exception {
        Exit help = runToEnd("admin", "--help");
        assertThat(help.code()).as(help.err()).isZero();
        assertThat(help.out()).contains("Usage: fjm2 admin", "--token-file", "--data", "--port");
    }

    @Test
    void refusesAWorldReadableTokenFile() throws Exception {
        Exit refused = runToEnd("admin", "--port", "0", "--bind", "127.0.0.1",
                "--token-file", tokenFile("rw-r--r--").toString(), "--data", dir.resolve("data").toString());
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err()).contains("readable or writable by other users");
        assertThat(refused.out()).doesNotContain("running");
    }

    @Test
    void servesTheRegistryUntilStopped() throws Exception {
        Process p = launcher("admin", "--port", "0", "--bind", "127.0.0.1", "--allow-loopback", "--token-file",
                tokenFile("rw-------").toString(), "--data", dir.resolve("data").toString())
                .redirectError(dir.resolve("stderr.txt").toFile()).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            CompletableFuture<String> firstLine = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    return null;
                }
            });
            String line = firstLine.get(120, TimeUnit.SECONDS);
            assertThat(line).as("stderr: %s", Files.readString(dir.resolve("stderr.txt"))).isNotNull();
            Matcher m = RUNNING.matcher(line);
            assertThat(m.find()).as(line).isTrue();
            URI base = URI.create(m.group(1));

            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> registered = http.send(HttpRequest.newBuilder(base.resolve("api/nodes"))
                    .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"n1\",\"host\":\"127.0.0.1\",\"port\":9}"))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(registered.statusCode()).isEqualTo(201);
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(base).header("Authorization", "Bearer " + TOKEN)
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.body()).contains("n1");
        } finally {
            p.destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("stops on SIGTERM").isTrue();
        }
    }
}
