package org.fjm2.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fjm2.admin.testing.AdminContainers;
import org.fjm2.admin.testing.AdminHttp;
import org.fjm2.admin.testing.AdminServer;
import org.fjm2.admin.testing.EmbeddedTomcat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page as a real browser sees it: headless Chromium loads it from the WAR in Tomcat (with the token as
 * the HTTP Basic password, as a user types it into the browser's prompt) and dumps the DOM it built; the
 * registered nodes must be in it. A phone-sized screenshot goes to target/ for people to look at.
 */
class StatusPageBrowserIT {

    static Path chromium;

    @TempDir
    Path dir;

    @BeforeAll
    static void findChromium() {
        for (String candidate : new String[] {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"}) {
            if (Files.isExecutable(Path.of(candidate))) {
                chromium = Path.of(candidate);
                return;
            }
        }
        System.out.println("StatusPageBrowserIT skipped: no chromium (apt-get install chromium)");
        assumeTrue(false, "chromium is not installed (apt-get install chromium)");
    }

    List<String> chromium(String... extra) {
        List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--user-data-dir=" + dir.resolve("profile-" + System.nanoTime())));
        command.addAll(List.of(extra));
        return command;
    }

    String run(List<String> command) throws IOException, InterruptedException {
        Path out = dir.resolve("chromium-" + System.nanoTime() + ".out");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile())
                .redirectError(dir.resolve("chromium.err").toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish within 120 s");
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    @Test
    void theRegisteredNodesAppearInTheBrowser() throws Exception {
        try (AdminServer server = EmbeddedTomcat.deploy(dir.resolve("tomcat"), Map.of(
                AdminSettings.TOKEN_FILE, AdminContainers.tokenFile(dir, AdminApiContract.TOKEN).toString(),
                AdminSettings.DATA_DIR, dir.resolve("data").toString(),
                AdminSettings.ADVERTISE_INTERVAL, "1h"))) {
            AdminHttp http = new AdminHttp(server.baseUri(), AdminApiContract.TOKEN);
            assertThat(http.register("taipei-gw", "gw.tp.example.org", 7001).statusCode()).isEqualTo(201);
            assertThat(http.register("hsinchu-gw", "2001:db8::42", 7002).statusCode()).isEqualTo(201);
            assertThat(http.register("lab-7", "10.7.0.1", 7003).statusCode()).isEqualTo(201);

            // The page needs the token (the default): the browser sends it as the Basic password of the URL.
            String withToken = "http://admin:" + AdminApiContract.TOKEN + "@" + server.baseUri().getAuthority() + "/";
            String dom = run(chromium("--dump-dom", withToken));
            assertThat(dom).as("DOM from chromium").contains("<table id=\"nodes\"");
            assertThat(dom).contains("taipei-gw", "gw.tp.example.org:7001", "hsinchu-gw", "[2001:db8::42]:7002",
                    "lab-7", "10.7.0.1:7003", "3 node(s) registered");
            assertThat(dom.split("class=\"node\"", -1)).hasSize(4);

            String target = System.getProperty("fjm2.test.output", dir.toString());
            Path phone = Path.of(target, "status-page-phone.png");
            run(chromium("--window-size=390,844", "--hide-scrollbars", "--screenshot=" + phone,
                    withToken));
            assertThat(phone).as("screenshot written").isNotEmptyFile();
        }
    }
}
