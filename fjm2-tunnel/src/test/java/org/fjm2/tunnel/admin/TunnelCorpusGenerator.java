package org.fjm2.tunnel.admin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.fjm2.tunnel.security.FrameCodec;
import org.fjm2.tunnel.security.TunnelKey;

/**
 * Writes the seed corpus of fjm2-tunnel's fuzz targets (run once by hand, files checked in):
 * {@code java -cp <fjm2-tunnel test classpath> org.fjm2.tunnel.admin.TunnelCorpusGenerator
 * fjm2-tunnel/src/test/resources}.
 */
final class TunnelCorpusGenerator {

    private TunnelCorpusGenerator() {
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]).resolve("org/fjm2/tunnel");
        frames(root.resolve("security/FrameCodecFuzzTestInputs"));
        advertisements(root.resolve("admin/AdvertisementFuzzTestInputs"));
        adminAnswers(root.resolve("admin/AdminPeerListFuzzTestInputs/adminAnswers"));
    }

    private static byte[] normData(int payload) {
        byte[] m = new byte[20 + payload];
        m[0] = 0x12;
        m[1] = 5;
        for (int i = 8; i < m.length; i++) {
            m[i] = (byte) (i * 13);
        }
        return m;
    }

    private static void frames(Path dir) throws IOException {
        Path forged = dir.resolve("forgedFramesAreRejected");
        TunnelKey otherKey = TunnelKey.of("another-tunnel-secret-0123456789".getBytes(StandardCharsets.US_ASCII));
        byte[] clear = frame(otherKey, false, FrameCodec.TYPE_NORM, normData(64));
        byte[] sealed = frame(otherKey, true, FrameCodec.TYPE_NORM, normData(64));
        write(forged, "clear_frame_under_another_key", clear);
        write(forged, "sealed_frame_under_another_key", sealed);
        write(forged, "keepalive_under_another_key", frame(otherKey, false, FrameCodec.TYPE_KEEPALIVE, new byte[0]));
        write(forged, "truncated_below_overhead", Arrays.copyOf(clear, FrameCodec.OVERHEAD - 1));
        byte[] badVersion = clear.clone();
        badVersion[FrameCodec.VERSION_OFFSET] = 2;
        write(forged, "version_2", badVersion);
        write(forged, "plain_norm_message", normData(40));
        write(forged, "empty", new byte[0]);
        write(forged, "magic_only", new byte[] {0x46, 0x54});
        write(forged, "larger_than_scratch", Arrays.copyOf(clear, 9000));
        Path roundTrip = dir.resolve("framesRoundTrip");
        write(roundTrip, "clear_norm", withControl(0, normData(64)));
        write(roundTrip, "sealed_norm", withControl(1, normData(1400)));
        write(roundTrip, "keepalive", withControl(2, new byte[0]));
        write(roundTrip, "sealed_cache_repair", withControl(1 | 4 | 0x50, normData(200)));
        write(roundTrip, "sealed_jumbo", withControl(1, normData(9000)));
        write(roundTrip, "empty", new byte[0]);
    }

    private static byte[] frame(TunnelKey key, boolean seal, int type, byte[] payload) {
        FrameCodec codec = new FrameCodec(key, FrameCodec.tagOf("other"), seal, 1000);
        ByteBuf out = codec.encode(UnpooledByteBufAllocator.DEFAULT, type, 0, Unpooled.wrappedBuffer(payload), 0,
                payload.length);
        byte[] bytes = ByteBufUtil.getBytes(out);
        out.release();
        return bytes;
    }

    private static byte[] withControl(int control, byte[] payload) {
        byte[] out = new byte[payload.length + 1];
        out[0] = (byte) control;
        System.arraycopy(payload, 0, out, 1, payload.length);
        return out;
    }

    private static void advertisements(Path dir) throws IOException {
        Path forged = dir.resolve("forgedAdvertisementsAreRejected");
        long now = System.currentTimeMillis();
        byte[] other = TestAdvertisements.make("another-token-0123456789", 5, now, 1);
        write(forged, "made_with_another_token", other);
        byte[] flipped = TestAdvertisements.make("fuzz-admin-token-0123456789abcdef", 5, now, 2);
        flipped[40] ^= 1;
        write(forged, "right_token_mac_bit_flipped", flipped);
        write(forged, "one_byte_short", Arrays.copyOf(other, 47));
        write(forged, "one_byte_long", Arrays.copyOf(other, 49));
        byte[] version2 = other.clone();
        version2[4] = 2;
        write(forged, "version_2", version2);
        write(forged, "empty", new byte[0]);
        Path authentic = dir.resolve("authenticAdvertisementsVerifyOnce");
        write(authentic, "zeros", new byte[18]);
        byte[] max = new byte[18];
        Arrays.fill(max, (byte) 0xFF);
        write(authentic, "all_ones_clock_behind", max);
        write(authentic, "stamp_and_nonce", new byte[] {0, 0, 1, (byte) 0x8C, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 0x10,
                0});
    }

    private static void adminAnswers(Path dir) throws IOException {
        String[] answers = {
            "{\"lastModified\":1732000000000,\"nodes\":[{\"id\":\"a\",\"host\":\"10.1.0.2\",\"port\":6003},"
                    + "{\"id\":\"b\",\"host\":\"gw.example\",\"port\":1,\"extra\":true}]}",
            "{\"lastModified\":7,\"nodes\":[]}",
            "{\"lastModified\":7,\"created\":true}",
            "{\"lastModified\":7,\"nodes\":[{\"id\":\"a\",\"host\":\"h\",\"port\":0}]}",
            "{\"lastModified\":7,\"nodes\":[{\"id\":\"a\",\"host\":\"h\",\"port\":70000}]}",
            "{\"lastModified\":7,\"nodes\":[{\"id\":\"a\",\"host\":\"h\",\"port\":\"6003\"}]}",
            "{\"lastModified\":7,\"nodes\":[{\"id\":5,\"host\":\"h\",\"port\":6003}]}",
            "{\"lastModified\":7,\"nodes\":{\"id\":\"a\"}}",
            "{\"lastModified\":1e400,\"nodes\":[]}",
            "{\"lastModified\":99999999999999999999999999999,\"nodes\":[]}",
            "{\"message\":\"nope\"}",
            "[1,2,3]",
            "not json at all",
            "",
            "[".repeat(5000),
            "{\"lastModified\":7,\"nodes\":[" + "{\"id\":\"n\",\"host\":\"h\",\"port\":9},".repeat(2000)
                    + "{\"id\":\"z\",\"host\":\"h\",\"port\":9}]}",
        };
        for (int i = 0; i < answers.length; i++) {
            write(dir, String.format("answer_%02d", i), answers[i].getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void write(Path dir, String name, byte[] content) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), content);
    }
}
