package org.fjm2.admin;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the seed corpus of FJM2-Admin's fuzz targets (run once by hand, files checked in):
 * {@code java -cp <fjm2-admin-war test classpath> org.fjm2.admin.AdminCorpusGenerator
 * fjm2-admin-war/src/test/resources}.
 */
final class AdminCorpusGenerator {

    private AdminCorpusGenerator() {
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]).resolve("org/fjm2/admin");
        Path bodies = root.resolve("RegistrationFuzzTestInputs/registrationBodies");
        String[] registrations = {
            "{\"id\":\"gw-1\",\"host\":\"10.1.0.2\",\"port\":6003}",
            "{\"id\":\"edge.lan-2:a\",\"host\":\"gw.example.org\",\"port\":1,\"version\":2,\"extra\":{\"x\":[1]}}",
            "{\"id\":\"v6\",\"host\":\"fe80::1\",\"port\":65535}",
            "{\"id\":\"gw-1\",\"host\":\"10.1.0.2\",\"port\":0}",
            "{\"id\":\"gw-1\",\"host\":\"10.1.0.2\",\"port\":65536}",
            "{\"id\":\"gw-1\",\"host\":\"10.1.0.2\",\"port\":\"6003\"}",
            "{\"id\":\"gw-1\",\"host\":\"10.1.0.2\",\"port\":6003.5}",
            "{\"id\":\"gw-1\",\"host\":\"10.1.0.2\",\"port\":99999999999999999999999}",
            "{\"id\":\"" + "x".repeat(300) + "\",\"host\":\"h\",\"port\":6003}",
            "{\"id\":\"gw-1\",\"host\":\"-bad-.label\",\"port\":6003}",
            "{\"id\":\"gw-1\",\"id\":\"gw-2\",\"host\":\"h\",\"port\":6003}",
            "{\"host\":\"h\",\"port\":6003}",
            "[" .repeat(3000),
            "[\"id\",\"host\",\"port\"]",
            "",
            "\uFEFF{\"id\":\"gw-1\",\"host\":\"10.1.0.2\",\"port\":6003}",
        };
        for (int i = 0; i < registrations.length; i++) {
            write(bodies, String.format("body_%02d", i), registrations[i].getBytes(StandardCharsets.UTF_8));
        }
        Path texts = root.resolve("RegistrationFuzzTestInputs/pathsHeadersAndTokens");
        String[] inputs = {
            "gw-1",
            "*",
            "\"1732000000000\"",
            "W/\"1732000000000\", \"1\"",
            ", , ,",
            "Bearer fuzz-token-one-0123456789",
            "fuzz-token-two-0123456789  ",
            "fuzz-token-one-0123456789\n# a comment\nshort,another-token-0123456789",
            "token-with-nul\u0000-0123456789",
            "y".repeat(2000),
        };
        for (int i = 0; i < inputs.length; i++) {
            write(texts, String.format("text_%02d", i), inputs[i].getBytes(StandardCharsets.UTF_8));
        }
        Path ads = root.resolve("AdvertisementEncodingFuzzTestInputs/encodedFieldsReadBack");
        write(ads, "zeros_fixed_tokens", new byte[24]);
        write(ads, "fields_one_token", fields(1_732_000_000_000L, 1_732_000_000_500L, 42, "only-token-0123456789"));
        write(ads, "fields_two_tokens_comment", fields(-1, Long.MIN_VALUE, Long.MAX_VALUE,
                "first-token-0123456789abc # admin 1\nsecond-token-0123456789ab"));
        write(ads, "too_short_token", fields(5, 6, 7, "short"));
        write(ads, "unicode_token", fields(5, 6, 7, "jeton-\u00e9\u00e8-\u4e2d\u6587-0123456789"));
    }

    private static byte[] fields(long lastModified, long timestamp, long nonce, String tokens) {
        byte[] text = tokens.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(24 + text.length).putLong(lastModified).putLong(timestamp).putLong(nonce)
                .put(text).array();
    }

    private static void write(Path dir, String name, byte[] content) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), content);
    }
}
