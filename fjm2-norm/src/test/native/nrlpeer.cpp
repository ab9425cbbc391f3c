// nrlpeer: a NORM sender or receiver built on NRL NORM's libnorm (Debian libnorm-dev), driven by command-line
// options, reporting what happens as one line per event on stdout: "TYPE key=value key=value ...".
// The FJM2 interop tests start it through org.fjm2.norm.interop.NrlPeer; run "nrlpeer --help" for the options.
//
// Object contents are a pure function of (seed, index, size) so that any receiver, Java or C++, can check them:
//   bytes 0..3  index, big-endian      bytes 4..7  size, big-endian     (cut short for objects under 8 bytes)
//   bytes 8..   successive splitmix64 outputs, each little-endian, from state seed ^ (index * 0xD1B54A32D192ED03)
// With --count/--min/--max, object i has size min + splitmix64(seed ^ 0x5EED5EED5EED5EED ^ (i * 0x9E3779B97F4A7C15))
// mod (max - min + 1). NrlPeer.java implements the same functions; keep them in step.
//
// Streams (--stream): the stream is a run of messages; message k has size msg-min + splitmix64(seed ^
// 0x3E55A6E53E55A6E5 ^ (k * 0x9E3779B97F4A7C15)) mod (msg-max - msg-min + 1), the last one cut at the stream's
// length. A message starts with a 12-byte header, its stream offset (8 bytes) and its size (4 bytes), big-endian;
// every other byte at stream offset x is byte (x mod 8) (little-endian) of splitmix64 from state
// seed ^ 0x57AE57AE57AE57AE ^ ((x / 8) * 0xD1B54A32D192ED03). The sender marks each message's start
// (NormStreamMarkEom); a receiver that joins late or loses data seeks a message start and goes on from its header.
//
// normApi.h does not compile as C (it uses C++ references and default arguments), hence C++.

#include <normApi.h>

#include <sys/select.h>
#include <sys/stat.h>
#include <sys/time.h>

#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char* const USAGE =
    "usage: nrlpeer send|recv [options]\n"
    "common:  --addr GROUP (224.1.2.3)  --port P (6003)  --iface IF (lo)  --id NODEID (1)\n"
    "         --buffer BYTES (16777216 session buffer)  --debug LEVEL (0)  --timeout SEC (120, then give up)\n"
    "         --linger SEC (2 send / 0 recv: keep serving repairs or ACKs after the work is done)\n"
    "         --cc (NORM-CC congestion control: --rate is the start, --rate-max the ceiling; RATE lines report\n"
    "         the sender's rate at each change, at most every 100 ms, and at the end)\n"
    "send:    --rate BPS (20000000)  --segment BYTES (1024)  --block K (64)  --parity N (0)  --auto-parity N (0)\n"
    "         --fec-id ID (0: libnorm picks 5, or 2 when block+parity > 255)  --instance ID (1)\n"
    "         --tx-loss PCT (0)  --grtt SEC (0.01)  --grtt-max SEC (10: a late answer raises GRTT for long)\n"
    "         --sizes N,N,... | --count N --min BYTES --max BYTES\n"
    "         --seed S (1)  --info (NORM_INFO \"obj-<i>.bin\"; a stream's: \"stream-<seed>\")  --ack NODEID (repeatable; watermark after the last)\n"
    "         --cache-bytes BYTES (268435456 tx cache)  --cache-count N (2048 objects)\n"
    "recv:    --rx-loss PCT (0)  --count N (objects to wait for; 0 = until timeout)  --out DIR  --verify-seed S\n"
    "         --sync-all (also ask for objects sent before we joined)\n"
    "stream:  --stream BYTES (send: a stream of BYTES instead of objects; recv: read a stream, BYTES 0 = until it\n"
    "         ends)  --stream-buffer BYTES (1048576)  --msg-min N (1000)  --msg-max N (20000)\n"
    "         --flush none|passive|active (none: auto-flush mode)  --write-chunk N (65536)  --progress N (262144)\n"

    "events:  READY, WARN, SENT, TX_QUEUE_EMPTY, FLUSH_DONE, WATERMARK, WATERMARK_DONE, SENDER_NEW, SENDER_INACTIVE,\n"
    "         RX_OBJECT, ABORTED, TIMEOUT, ERROR, DONE; streams: PROGRESS, STREAM_CLOSED, STREAM_NEW, STREAM_BREAK,\n"
    "         STREAM_END, STREAM_ABORTED, STREAM_INFO\n";

// Socket buffers asked of libnorm (the kernel caps them at net.core.[rw]mem_max).
const unsigned int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

struct Options {
    bool send = false;
    std::string addr = "224.1.2.3";
    int port = 6003;
    std::string iface = "lo";
    unsigned long id = 1;
    unsigned long buffer = 16UL * 1024 * 1024;
    int debug = 0;
    double timeout = 120.0;
    double linger = -1.0;
    // send
    double rate = 20e6;
    bool cc = false;
    double rateMax = -1.0;
    int segment = 1024;
    int block = 64;
    int parity = 0;
    int autoParity = 0;
    int fecId = 0;
    int instance = 1;
    double txLoss = 0.0;
    double grtt = 0.01;
    double grttMax = 10.0;
    std::vector<unsigned long> sizes;
    long count = -1;
    unsigned long minSize = 1024;
    unsigned long maxSize = 1024;
    uint64_t seed = 1;
    bool info = false;
    std::vector<unsigned long> ackNodes;
    unsigned long cacheBytes = 256UL * 1024 * 1024;
    unsigned long cacheCount = 2048;
    // recv
    double rxLoss = 0.0;
    std::string outDir;
    bool verify = false;
    uint64_t verifySeed = 0;
    bool syncAll = false;
    // streams
    bool stream = false;
    unsigned long streamBytes = 0;
    unsigned long streamBuffer = 1024UL * 1024;
    unsigned long msgMin = 1000;
    unsigned long msgMax = 20000;
    NormFlushMode flush = NORM_FLUSH_NONE;
    unsigned long writeChunk = 65536;
    unsigned long progress = 262144;
};

// Event values never contain spaces or '=': anything outside [A-Za-z0-9._-] is written as %XX.
std::string escape(const char* text, size_t length) {
    std::string out;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
            c == '-') {
            out += (char)c;
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            out += hex;
        }
    }
    return out;
}

[[noreturn]] void fail(const std::string& why, int code) {
    std::printf("ERROR reason=%s\n", escape(why.data(), why.size()).c_str());
    std::fflush(stdout);
    std::fprintf(stderr, "nrlpeer: %s\n", why.c_str());
    std::exit(code);
}

uint64_t splitmix64(uint64_t& state) {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

unsigned long objectSize(const Options& o, unsigned long index) {
    if (!o.sizes.empty()) return o.sizes[index];
    uint64_t state = o.seed ^ 0x5EED5EED5EED5EEDULL ^ (index * 0x9E3779B97F4A7C15ULL);
    return o.minSize + (unsigned long)(splitmix64(state) % (uint64_t)(o.maxSize - o.minSize + 1));
}

void fillContent(uint64_t seed, unsigned long index, unsigned long size, char* data) {
    unsigned char header[8] = {
        (unsigned char)(index >> 24), (unsigned char)(index >> 16), (unsigned char)(index >> 8), (unsigned char)index,
        (unsigned char)(size >> 24), (unsigned char)(size >> 16), (unsigned char)(size >> 8), (unsigned char)size};
    std::memcpy(data, header, size < 8 ? size : 8);
    uint64_t state = seed ^ (index * 0xD1B54A32D192ED03ULL);
    for (unsigned long x = 8; x < size; x += 8) {
        uint64_t v = splitmix64(state);
        for (unsigned long b = 0; b < 8 && x + b < size; b++) data[x + b] = (char)(v >> (8 * b));
    }
}

uint32_t crc32(const char* data, unsigned long size) {
    static uint32_t table[256];
    static bool ready = false;
    if (!ready) {
        for (uint32_t n = 0; n < 256; n++) {
            uint32_t c = n;
            for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320U ^ (c >> 1) : c >> 1;
            table[n] = c;
        }
        ready = true;
    }
    uint32_t crc = 0xFFFFFFFFU;
    for (unsigned long i = 0; i < size; i++) crc = table[(crc ^ (unsigned char)data[i]) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFU;
}

double now() {
    struct timeval tv;
    gettimeofday(&tv, nullptr);
    return tv.tv_sec + tv.tv_usec / 1e6;
}

void event(const char* format, ...) __attribute__((format(printf, 1, 2)));
void event(const char* format, ...) {
    va_list args;
    va_start(args, format);
    std::vprintf(format, args);
    va_end(args);
    std::printf("\n");
    std::fflush(stdout);
}

unsigned long parseNumber(const char* option, const char* value) {
    char* end = nullptr;
    errno = 0;
    unsigned long v = std::strtoul(value, &end, 0);
    if (errno != 0 || end == value || *end != '\0') fail(std::string("bad number for ") + option + ": " + value, 2);
    return v;
}

double parseReal(const char* option, const char* value) {
    char* end = nullptr;
    double v = std::strtod(value, &end);
    if (end == value || *end != '\0' || v < 0) fail(std::string("bad value for ") + option + ": " + value, 2);
    return v;
}

Options parse(int argc, char** argv) {
    Options o;
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::fputs(USAGE, argc < 2 ? stderr : stdout);
        std::exit(argc < 2 ? 2 : 0);
    }
    std::string role = argv[1];
    if (role != "send" && role != "recv") fail("first argument must be send or recv, not " + role, 2);
    o.send = role == "send";
    for (int i = 2; i < argc; i++) {
        std::string name = argv[i];
        if (name == "--help" || name == "-h") {
            std::fputs(USAGE, stdout);
            std::exit(0);
        }
        if (name == "--info") { o.info = true; continue; }
        if (name == "--sync-all") { o.syncAll = true; continue; }
        if (name == "--cc") { o.cc = true; continue; }
        if (i + 1 >= argc) fail("missing value after " + name, 2);
        const char* v = argv[++i];
        const char* n = name.c_str();
        if (name == "--addr") o.addr = v;
        else if (name == "--port") o.port = (int)parseNumber(n, v);
        else if (name == "--iface") o.iface = v;
        else if (name == "--id") o.id = parseNumber(n, v);
        else if (name == "--buffer") o.buffer = parseNumber(n, v);
        else if (name == "--debug") o.debug = (int)parseNumber(n, v);
        else if (name == "--timeout") o.timeout = parseReal(n, v);
        else if (name == "--linger") o.linger = parseReal(n, v);
        else if (name == "--rate") o.rate = parseReal(n, v);
        else if (name == "--rate-max") o.rateMax = parseReal(n, v);
        else if (name == "--segment") o.segment = (int)parseNumber(n, v);
        else if (name == "--block") o.block = (int)parseNumber(n, v);
        else if (name == "--parity") o.parity = (int)parseNumber(n, v);
        else if (name == "--auto-parity") o.autoParity = (int)parseNumber(n, v);
        else if (name == "--fec-id") o.fecId = (int)parseNumber(n, v);
        else if (name == "--instance") o.instance = (int)parseNumber(n, v);
        else if (name == "--tx-loss") o.txLoss = parseReal(n, v);
        else if (name == "--grtt") o.grtt = parseReal(n, v);
        else if (name == "--grtt-max") o.grttMax = parseReal(n, v);
        else if (name == "--count") o.count = (long)parseNumber(n, v);
        else if (name == "--min") o.minSize = parseNumber(n, v);
        else if (name == "--max") o.maxSize = parseNumber(n, v);
        else if (name == "--seed") o.seed = parseNumber(n, v);
        else if (name == "--ack") o.ackNodes.push_back(parseNumber(n, v));
        else if (name == "--cache-bytes") o.cacheBytes = parseNumber(n, v);
        else if (name == "--cache-count") o.cacheCount = parseNumber(n, v);
        else if (name == "--rx-loss") o.rxLoss = parseReal(n, v);
        else if (name == "--out") o.outDir = v;
        else if (name == "--verify-seed") { o.verify = true; o.verifySeed = parseNumber(n, v); }
        else if (name == "--stream") { o.stream = true; o.streamBytes = parseNumber(n, v); }
        else if (name == "--stream-buffer") o.streamBuffer = parseNumber(n, v);
        else if (name == "--msg-min") o.msgMin = parseNumber(n, v);
        else if (name == "--msg-max") o.msgMax = parseNumber(n, v);
        else if (name == "--write-chunk") o.writeChunk = parseNumber(n, v);
        else if (name == "--progress") o.progress = parseNumber(n, v);
        else if (name == "--flush") {
            std::string mode = v;
            if (mode == "none") o.flush = NORM_FLUSH_NONE;
            else if (mode == "passive") o.flush = NORM_FLUSH_PASSIVE;
            else if (mode == "active") o.flush = NORM_FLUSH_ACTIVE;
            else fail("--flush must be none, passive or active", 2);
        }
        else if (name == "--sizes") {
            std::string list = v;
            size_t start = 0;
            while (start <= list.size()) {
                size_t comma = list.find(',', start);
                if (comma == std::string::npos) comma = list.size();
                o.sizes.push_back(parseNumber(n, list.substr(start, comma - start).c_str()));
                start = comma + 1;
            }
        } else fail("unknown option " + name + " (see --help)", 2);
    }
    if (o.linger < 0) o.linger = o.send ? 2.0 : 0.0;
    if (o.stream && (o.msgMin < 12 || o.msgMax < o.msgMin)) fail("need 12 <= --msg-min <= --msg-max", 2);
    if (o.stream && o.writeChunk < 1) fail("--write-chunk must be positive", 2);
    if (o.send) {
        if (!o.stream && o.sizes.empty() && o.count < 0) fail("send needs --sizes or --count", 2);
        if (o.sizes.empty() && (o.minSize < 1 || o.maxSize < o.minSize)) fail("need 1 <= --min <= --max", 2);
        if (o.segment < 1 || o.segment > 65000) fail("--segment must be 1..65000", 2);
        if (o.block < 1 || o.parity < 0 || o.block + o.parity > 65535) fail("bad --block/--parity", 2);
        if (o.autoParity > o.parity) fail("--auto-parity cannot exceed --parity", 2);
    }
    return o;
}

// Waits up to `seconds` for the next libnorm event; false on timeout.
bool nextEvent(NormInstanceHandle instance, NormEvent& e, double seconds) {
    int fd = NormGetDescriptor(instance);
    fd_set readable;
    FD_ZERO(&readable);
    FD_SET(fd, &readable);
    if (seconds < 0) seconds = 0;
    struct timeval tv;
    tv.tv_sec = (long)seconds;
    tv.tv_usec = (long)((seconds - (double)tv.tv_sec) * 1e6);
    int ready = select(fd + 1, &readable, nullptr, nullptr, &tv);
    if (ready <= 0) return false;
    return NormGetNextEvent(instance, &e, false);
}

const char* ackStatusName(NormAckingStatus status) {
    switch (status) {
        case NORM_ACK_SUCCESS: return "SUCCESS";
        case NORM_ACK_FAILURE: return "FAILURE";
        case NORM_ACK_PENDING: return "PENDING";
        default: return "INVALID";
    }
}

// "RATE bps=..." for NORM-CC senders, at most every 100 ms (or now when `force`): at each NORM_TX_RATE_CHANGED and
// on every pass of the sender's loop. The rate is read every time: libnorm posts the next TX_RATE_CHANGED only
// after the application read the rate.
void reportRate(NormSessionHandle session, bool force) {
    static double last = 0;
    double rate = NormGetTxRate(session);
    double t = now();
    if (!force && t - last < 0.1) return;
    last = t;
    event("RATE bps=%.0f", rate);
}

NormSessionHandle openSession(NormInstanceHandle instance, const Options& o) {
    NormSessionHandle session = NormCreateSession(instance, o.addr.c_str(), (UINT16)o.port, (NormNodeId)o.id);
    if (session == NORM_SESSION_INVALID) fail("NormCreateSession failed for " + o.addr, 1);
    // several peers and JVMs share group:port on one host: bind to the group with SO_REUSEADDR, loop multicast back
    NormSetRxPortReuse(session, true, o.addr.c_str());
    if (!NormSetMulticastInterface(session, o.iface.c_str())) fail("cannot use interface " + o.iface, 1);
    NormSetMulticastLoopback(session, true);
    NormSetTTL(session, 1);
    return session;
}

struct SentObject {
    unsigned long index;
    char* data;
};

int runSender(const Options& o) {
    NormInstanceHandle instance = NormCreateInstance();
    NormSessionHandle session = openSession(instance, o);
    NormSetTxRate(session, o.rate);
    if (o.cc) {
        NormSetCongestionControl(session, true);
        NormSetTxRateBounds(session, -1.0, o.rateMax > 0 ? o.rateMax : -1.0);
    }
    NormSetGrttMax(session, o.grttMax);
    NormSetGrttEstimate(session, o.grtt);
    NormSetTxLoss(session, o.txLoss);
    NormSetTxCacheBounds(session, (NormSize)o.cacheBytes, 16, (UINT32)o.cacheCount);
    for (unsigned long node : o.ackNodes) NormAddAckingNode(session, (NormNodeId)node);
    if (!NormStartSender(session, (NormSessionId)o.instance, (UINT32)o.buffer, (UINT16)o.segment, (UINT16)o.block,
                         (UINT16)o.parity, (UINT8)o.fecId)) {
        fail("NormStartSender failed (segment/block/parity/fec-id rejected?)", 1);
    }
    NormSetAutoParity(session, (unsigned char)o.autoParity);
    if (!NormSetTxSocketBuffer(session, SOCKET_BUFFER_BYTES)) {  // refused before the sender runs
        event("WARN reason=NormSetTxSocketBuffer%%20failed");
    }
    event("READY role=send node=%lu", o.id);

    unsigned long total = o.sizes.empty() ? (unsigned long)o.count : o.sizes.size();
    unsigned long next = 0;
    unsigned long sent = 0;
    NormObjectHandle last = NORM_OBJECT_INVALID;
    bool watermarkSet = false;
    bool finished = false;  // flush (or watermark) done
    double deadline = now() + o.timeout;
    double lingerUntil = -1;
    bool timedOut = false;
    while (true) {
        // enqueue until libnorm's queue refuses; it tells us with TX_QUEUE_VACANCY when to try again
        while (next < total) {
            unsigned long size = objectSize(o, next);
            char* data = new char[size == 0 ? 1 : size];
            fillContent(o.seed, next, size, data);
            char infoText[64];
            int infoLength = std::snprintf(infoText, sizeof infoText, "obj-%lu.bin", next);
            NormObjectHandle object =
                NormDataEnqueue(session, data, (UINT32)size, o.info ? infoText : nullptr, o.info ? infoLength : 0);
            if (object == NORM_OBJECT_INVALID) {
                delete[] data;
                break;
            }
            NormObjectSetUserData(object, new SentObject{next, data});
            last = object;
            next++;
        }
        if (next == total && !o.ackNodes.empty() && !watermarkSet && total > 0) {
            NormSetWatermark(session, last, true);
            watermarkSet = true;
        }
        if (o.cc) reportRate(session, false);
        double t = now();
        if (finished && lingerUntil < 0) lingerUntil = t + o.linger;
        if (lingerUntil >= 0 && t >= lingerUntil) break;
        if (t >= deadline) { timedOut = true; break; }
        double wait = (lingerUntil >= 0 ? lingerUntil : deadline) - t;
        NormEvent e;
        if (!nextEvent(instance, e, wait > 0.2 ? 0.2 : wait)) continue;
        switch (e.type) {
            case NORM_TX_OBJECT_SENT: {
                SentObject* s = (SentObject*)NormObjectGetUserData(e.object);
                if (s != nullptr) {
                    sent++;
                    event("SENT index=%lu size=%lld", s->index, (long long)NormObjectGetSize(e.object));
                }
                break;
            }
            case NORM_TX_OBJECT_PURGED: {
                SentObject* s = (SentObject*)NormObjectGetUserData(e.object);
                if (s != nullptr) {
                    delete[] s->data;
                    delete s;
                    NormObjectSetUserData(e.object, nullptr);
                }
                break;
            }
            case NORM_TX_QUEUE_EMPTY:
                if (next == total) event("TX_QUEUE_EMPTY");
                break;
            case NORM_TX_FLUSH_COMPLETED:
                if (next == total) {
                    event("FLUSH_DONE");
                    if (o.ackNodes.empty()) finished = true;
                }
                break;
            case NORM_TX_WATERMARK_COMPLETED: {
                bool allAcked = NormGetAckingStatus(session, NORM_NODE_ANY) == NORM_ACK_SUCCESS;
                NormNodeId node = NORM_NODE_NONE;
                NormAckingStatus status;
                while (NormGetNextAckingNode(session, &node, &status)) {
                    event("WATERMARK result=%s node=%lu status=%s", status == NORM_ACK_SUCCESS ? "ok" : "failed",
                          (unsigned long)node, ackStatusName(status));
                }
                event("WATERMARK_DONE result=%s", allAcked ? "ok" : "failed");
                finished = true;
                break;
            }
            case NORM_TX_RATE_CHANGED:
                reportRate(session, false);
                break;
            case NORM_CC_ACTIVE:
                event("CC_ACTIVE");
                break;
            case NORM_CC_INACTIVE:
                event("CC_INACTIVE");
                break;
            default:
                break;
        }
    }
    if (o.cc) reportRate(session, true);
    if (timedOut) event("TIMEOUT enqueued=%lu sent=%lu of=%lu", next, sent, total);
    event("DONE role=send sent=%lu enqueued=%lu", sent, next);
    NormStopSender(session);
    NormDestroySession(session);
    NormDestroyInstance(instance);
    return timedOut ? 3 : 0;
}

// Checks a received object against the content its header (or NORM_INFO name) says it should have.
const char* verifyObject(const Options& o, const char* data, unsigned long size, long infoIndex, long* indexOut) {
    long index = infoIndex;
    if (size >= 8) {
        const unsigned char* h = (const unsigned char*)data;
        unsigned long headerIndex = ((unsigned long)h[0] << 24) | (h[1] << 16) | (h[2] << 8) | h[3];
        unsigned long headerSize = ((unsigned long)h[4] << 24) | (h[5] << 16) | (h[6] << 8) | h[7];
        if (headerSize != size || (infoIndex >= 0 && (unsigned long)infoIndex != headerIndex)) return "bad";
        index = (long)headerIndex;
    }
    *indexOut = index;
    if (index < 0) return "skip";
    std::vector<char> expected(size == 0 ? 1 : size);
    fillContent(o.verifySeed, (unsigned long)index, size, expected.data());
    return std::memcmp(expected.data(), data, size) == 0 ? "ok" : "bad";
}

std::string safeFileName(const std::string& info, unsigned long sequence) {
    std::string name;
    for (char c : info) {
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                     c == '_' || c == '-';
        name += plain ? c : '_';
    }
    if (name.empty() || name[0] == '.') name = "object-" + std::to_string(sequence) + ".bin";
    return name;
}

int runReceiver(const Options& o) {
    if (!o.outDir.empty()) mkdir(o.outDir.c_str(), 0755);
    NormInstanceHandle instance = NormCreateInstance();
    NormSessionHandle session = openSession(instance, o);
    NormSetRxLoss(session, o.rxLoss);
    NormSetDefaultSyncPolicy(session, o.syncAll ? NORM_SYNC_ALL : NORM_SYNC_CURRENT);
    if (!NormStartReceiver(session, (UINT32)o.buffer)) fail("NormStartReceiver failed", 1);
    if (!NormSetRxSocketBuffer(session, SOCKET_BUFFER_BYTES)) {  // refused before the receiver runs
        event("WARN reason=NormSetRxSocketBuffer%%20failed");
    }
    event("READY role=recv node=%lu", o.id);

    unsigned long completed = 0;
    unsigned long aborted = 0;
    unsigned long sequence = 0;
    double deadline = now() + o.timeout;
    double lingerUntil = -1;
    bool timedOut = false;
    while (true) {
        double t = now();
        if (o.count > 0 && (long)completed >= o.count && lingerUntil < 0) lingerUntil = t + o.linger;
        if (lingerUntil >= 0 && t >= lingerUntil) break;
        if (t >= deadline) { timedOut = o.count > 0; break; }
        double wait = (lingerUntil >= 0 ? lingerUntil : deadline) - t;
        NormEvent e;
        if (!nextEvent(instance, e, wait > 0.2 ? 0.2 : wait)) continue;
        switch (e.type) {
            case NORM_REMOTE_SENDER_NEW:
                event("SENDER_NEW node=%lu", (unsigned long)NormNodeGetId(e.sender));
                break;
            case NORM_REMOTE_SENDER_INACTIVE:
                event("SENDER_INACTIVE node=%lu", (unsigned long)NormNodeGetId(e.sender));
                break;
            case NORM_RX_OBJECT_COMPLETED:
            case NORM_RX_OBJECT_ABORTED: {
                bool done = e.type == NORM_RX_OBJECT_COMPLETED;
                unsigned long seq = sequence++;
                std::string info;
                if (NormObjectHasInfo(e.object)) {
                    std::vector<char> buffer(NormObjectGetInfoLength(e.object) + 1);
                    UINT16 length = NormObjectGetInfo(e.object, buffer.data(), (UINT16)buffer.size());
                    info.assign(buffer.data(), length);
                }
                unsigned long size = (unsigned long)NormObjectGetSize(e.object);
                unsigned long sender = (unsigned long)NormNodeGetId(NormObjectGetSender(e.object));
                if (!done || NormObjectGetType(e.object) != NORM_OBJECT_DATA) {
                    aborted += done ? 0 : 1;
                    event("%s seq=%lu sender=%lu size=%lu info=%s type=%d", done ? "RX_OTHER" : "ABORTED", seq, sender,
                          size, escape(info.data(), info.size()).c_str(), (int)NormObjectGetType(e.object));
                    break;
                }
                completed++;
                const char* data = NormDataAccessData(e.object);
                long infoIndex = -1;
                unsigned long parsed;
                if (std::sscanf(info.c_str(), "obj-%lu.bin", &parsed) == 1) infoIndex = (long)parsed;
                long index = infoIndex;
                const char* verdict = o.verify ? verifyObject(o, data, size, infoIndex, &index) : "skip";
                if (!o.outDir.empty()) {
                    std::string path = o.outDir + "/" + safeFileName(info, seq);
                    FILE* f = std::fopen(path.c_str(), "wb");
                    if (f == nullptr || std::fwrite(data, 1, size, f) != size) fail("cannot write " + path, 1);
                    std::fclose(f);
                }
                event("RX_OBJECT seq=%lu sender=%lu size=%lu info=%s index=%ld crc32=%08x verify=%s", seq, sender,
                      size, info.empty() ? "-" : escape(info.data(), info.size()).c_str(), index,
                      crc32(data, size), verdict);
                break;
            }
            default:
                break;
        }
    }
    if (timedOut) event("TIMEOUT completed=%lu of=%ld", completed, o.count);
    event("DONE role=recv completed=%lu aborted=%lu", completed, aborted);
    NormStopReceiver(session);
    NormDestroySession(session);
    NormDestroyInstance(instance);
    return timedOut ? 3 : 0;
}

// ---- streams ------------------------------------------------------------------------------------------------------

uint8_t streamByteAt(uint64_t seed, uint64_t offset) {
    uint64_t state = seed ^ 0x57AE57AE57AE57AEULL ^ ((offset >> 3) * 0xD1B54A32D192ED03ULL);
    return (uint8_t)(splitmix64(state) >> (8 * (offset & 7)));
}

// The messages of a stream, in order: index, start offset and size of the current one.
struct StreamLayout {
    uint64_t seed;
    unsigned long min;
    unsigned long max;
    uint64_t total;
    unsigned long index = 0;
    uint64_t start = 0;
    unsigned long size = 0;

    StreamLayout(const Options& o, uint64_t s, uint64_t t) : seed(s), min(o.msgMin), max(o.msgMax), total(t) {
        size = sizeOf(0);
    }

    unsigned long sizeOf(unsigned long k) const {
        uint64_t state = seed ^ 0x3E55A6E53E55A6E5ULL ^ (k * 0x9E3779B97F4A7C15ULL);
        uint64_t v = min + splitmix64(state) % (uint64_t)(max - min + 1);
        if (total > 0 && start + v > total) v = total - start;
        return (unsigned long)v;
    }

    void next() {
        start += size;
        index++;
        size = sizeOf(index);
    }

    void fill(char* out) const {
        for (unsigned long i = 0; i < size; i++) {
            uint64_t x = start + i;
            if (i < 8) out[i] = (char)(start >> (56 - 8 * i));
            else if (i < 12) out[i] = (char)(size >> (24 - 8 * (i - 8)));
            else out[i] = (char)streamByteAt(seed, x);
        }
    }
};

int runStreamSender(const Options& o) {
    NormInstanceHandle instance = NormCreateInstance();
    NormSessionHandle session = openSession(instance, o);
    NormSetTxRate(session, o.rate);
    if (o.cc) {
        NormSetCongestionControl(session, true);
        NormSetTxRateBounds(session, -1.0, o.rateMax > 0 ? o.rateMax : -1.0);
    }
    NormSetGrttMax(session, o.grttMax);
    NormSetGrttEstimate(session, o.grtt);
    NormSetTxLoss(session, o.txLoss);
    for (unsigned long node : o.ackNodes) NormAddAckingNode(session, (NormNodeId)node);
    if (!NormStartSender(session, (NormSessionId)o.instance, (UINT32)o.buffer, (UINT16)o.segment, (UINT16)o.block,
                         (UINT16)o.parity, (UINT8)o.fecId)) {
        fail("NormStartSender failed (segment/block/parity/fec-id rejected?)", 1);
    }
    NormSetAutoParity(session, (unsigned char)o.autoParity);
    if (!NormSetTxSocketBuffer(session, SOCKET_BUFFER_BYTES)) event("WARN reason=NormSetTxSocketBuffer%%20failed");
    // --info: the stream's NORM_INFO is "stream-<seed>" (what a receiver reports as STREAM_INFO)
    char infoText[64];
    int infoLength = std::snprintf(infoText, sizeof infoText, "stream-%llu", (unsigned long long)o.seed);
    NormObjectHandle stream = NormStreamOpen(session, (UINT32)o.streamBuffer, o.info ? infoText : nullptr,
                                             o.info ? (UINT32)infoLength : 0);
    if (stream == NORM_OBJECT_INVALID) fail("NormStreamOpen failed", 1);
    if (o.flush != NORM_FLUSH_NONE) NormStreamSetAutoFlush(stream, o.flush);
    event("READY role=send node=%lu stream=%lu", o.id, o.streamBytes);

    StreamLayout layout(o, o.seed, o.streamBytes);
    std::vector<char> message(o.msgMax);
    layout.fill(message.data());
    unsigned long inMessage = 0;
    uint64_t written = 0;
    uint64_t nextProgress = o.progress;
    bool closed = false;
    bool finished = false;
    double deadline = now() + o.timeout;
    double lingerUntil = -1;
    bool timedOut = false;
    while (true) {
        while (!closed && written < o.streamBytes) {
            if (inMessage == layout.size) {
                NormStreamMarkEom(stream);      // the next write starts a message
                layout.next();
                layout.fill(message.data());
                inMessage = 0;
            }
            unsigned long chunk = layout.size - inMessage;
            if (chunk > o.writeChunk) chunk = o.writeChunk;
            unsigned int n = NormStreamWrite(stream, message.data() + inMessage, (unsigned int)chunk);
            inMessage += n;
            written += n;
            while (o.progress > 0 && written >= nextProgress) {
                event("PROGRESS written=%llu", (unsigned long long)written);
                nextProgress += o.progress;
            }
            if (n < chunk) break;  // the stream buffer is full: TX_QUEUE_VACANCY says when to go on
        }
        if (!closed && written >= o.streamBytes) {
            NormStreamFlush(stream, true, NORM_FLUSH_ACTIVE);
            NormStreamClose(stream, true);  // graceful: the end-of-stream mark follows the data
            closed = true;
            event("STREAM_CLOSED written=%llu messages=%lu", (unsigned long long)written, layout.index + 1);
        }
        double t = now();
        if (finished && lingerUntil < 0) lingerUntil = t + o.linger;
        if (lingerUntil >= 0 && t >= lingerUntil) break;
        if (t >= deadline) { timedOut = true; break; }
        double wait = (lingerUntil >= 0 ? lingerUntil : deadline) - t;
        NormEvent e;
        if (!nextEvent(instance, e, wait > 0.05 ? 0.05 : wait)) continue;
        switch (e.type) {
            case NORM_TX_FLUSH_COMPLETED:
                if (closed && !finished) {
                    event("FLUSH_DONE");
                    finished = true;
                }
                break;
            case NORM_TX_WATERMARK_COMPLETED:
                event("WATERMARK_DONE result=%s",
                      NormGetAckingStatus(session, NORM_NODE_ANY) == NORM_ACK_SUCCESS ? "ok" : "failed");
                break;
            default:
                break;
        }
    }
    if (timedOut) event("TIMEOUT written=%llu of=%lu", (unsigned long long)written, o.streamBytes);
    event("DONE role=send written=%llu", (unsigned long long)written);
    NormStopSender(session);
    NormDestroySession(session);
    NormDestroyInstance(instance);
    return timedOut ? 3 : 0;
}

// Checks a received stream message by message: each header's offset must continue the bytes before it (unless the
// stream broke or was just joined), every other byte must be the content at its offset.
struct StreamChecker {
    uint64_t seed;
    bool synced = false;  // a header's offset is known
    bool continuous = false;  // no break since the last header: the next header must continue it
    unsigned char header[12];
    unsigned int headerFill = 0;
    uint64_t offset = 0;  // stream offset of the next byte
    uint64_t remaining = 0;  // bytes left in the current message
    uint64_t received = 0;
    uint64_t first = 0;
    bool haveFirst = false;
    uint64_t bad = 0;
    uint64_t messages = 0;
    uint32_t crc = 0xFFFFFFFFU;

    void resync() {
        synced = false;
        continuous = false;
        headerFill = 0;
        remaining = 0;
    }

    void consume(const char* data, unsigned int n) {
        static uint32_t table[256];
        static bool ready = false;
        if (!ready) {
            for (uint32_t v = 0; v < 256; v++) {
                uint32_t c = v;
                for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320U ^ (c >> 1) : c >> 1;
                table[v] = c;
            }
            ready = true;
        }
        received += n;
        for (unsigned int i = 0; i < n; i++) {
            unsigned char b = (unsigned char)data[i];
            crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
            if (remaining == 0) {
                header[headerFill++] = b;
                if (headerFill < 12) continue;
                uint64_t start = 0;
                for (int k = 0; k < 8; k++) start = (start << 8) | header[k];
                uint64_t size = ((uint64_t)header[8] << 24) | (header[9] << 16) | (header[10] << 8) | header[11];
                if (continuous && start != offset) bad++;
                if (size < 12) bad++;
                if (!haveFirst) {
                    first = start;
                    haveFirst = true;
                }
                offset = start + 12;
                remaining = size > 12 ? size - 12 : 0;
                headerFill = 0;
                synced = true;
                continuous = true;
                messages++;
                continue;
            }
            if (b != streamByteAt(seed, offset)) bad++;
            offset++;
            remaining--;
        }
    }
};

int runStreamReceiver(const Options& o) {
    NormInstanceHandle instance = NormCreateInstance();
    NormSessionHandle session = openSession(instance, o);
    NormSetRxLoss(session, o.rxLoss);
    NormSetDefaultSyncPolicy(session, o.syncAll ? NORM_SYNC_ALL : NORM_SYNC_CURRENT);
    if (!NormStartReceiver(session, (UINT32)o.buffer)) fail("NormStartReceiver failed", 1);
    if (!NormSetRxSocketBuffer(session, SOCKET_BUFFER_BYTES)) event("WARN reason=NormSetRxSocketBuffer%%20failed");
    event("READY role=recv node=%lu stream=%lu", o.id, o.streamBytes);

    StreamChecker check;
    check.seed = o.verifySeed;
    std::vector<char> buffer(65536);
    NormObjectHandle stream = NORM_OBJECT_INVALID;
    bool ended = false;
    bool seeking = true;  // find a message start first (joined late, or after a break)
    unsigned long breaks = 0;
    uint64_t nextProgress = o.progress;
    double deadline = now() + o.timeout;
    double lingerUntil = -1;
    bool timedOut = false;
    while (true) {
        double t = now();
        bool done = ended || (o.streamBytes > 0 && check.received >= o.streamBytes);
        if (done && lingerUntil < 0) lingerUntil = t + o.linger;
        if (lingerUntil >= 0 && t >= lingerUntil) break;
        if (t >= deadline) { timedOut = true; break; }
        double wait = (lingerUntil >= 0 ? lingerUntil : deadline) - t;
        NormEvent e;
        if (!nextEvent(instance, e, wait > 0.2 ? 0.2 : wait)) continue;
        switch (e.type) {
            case NORM_REMOTE_SENDER_NEW:
                event("SENDER_NEW node=%lu", (unsigned long)NormNodeGetId(e.sender));
                break;
            case NORM_RX_OBJECT_NEW:
                if (NormObjectGetType(e.object) == NORM_OBJECT_STREAM && stream == NORM_OBJECT_INVALID) {
                    stream = e.object;
                    event("STREAM_NEW sender=%lu", (unsigned long)NormNodeGetId(NormObjectGetSender(e.object)));
                }
                break;
            case NORM_RX_OBJECT_INFO:
                if (e.object == stream) {
                    char info[1024];
                    unsigned int length = NormObjectGetInfo(stream, info, sizeof info);
                    event("STREAM_INFO info=%s", escape(info, length < sizeof info ? length : sizeof info).c_str());
                }
                break;
            case NORM_RX_OBJECT_UPDATED:
                if (e.object != stream || ended) break;
                while (true) {
                    if (seeking) {
                        if (!NormStreamSeekMsgStart(stream)) break;
                        seeking = false;
                        check.resync();
                    }
                    unsigned int n = (unsigned int)buffer.size();
                    if (!NormStreamRead(stream, buffer.data(), &n)) {
                        breaks++;
                        event("STREAM_BREAK received=%llu offset=%llu", (unsigned long long)check.received,
                              (unsigned long long)check.offset);
                        seeking = true;
                        continue;
                    }
                    if (n == 0) break;
                    check.consume(buffer.data(), n);
                    while (o.progress > 0 && check.received >= nextProgress) {
                        event("PROGRESS received=%llu", (unsigned long long)check.received);
                        nextProgress += o.progress;
                    }
                }
                break;
            case NORM_RX_OBJECT_COMPLETED:
                if (e.object == stream) ended = true;
                break;
            case NORM_RX_OBJECT_ABORTED:
                if (e.object == stream) {
                    event("STREAM_ABORTED received=%llu", (unsigned long long)check.received);
                    ended = true;
                }
                break;
            default:
                break;
        }
    }
    event("STREAM_END received=%llu first=%llu end=%llu messages=%llu breaks=%lu bad=%llu crc32=%08x verify=%s",
          (unsigned long long)check.received, (unsigned long long)check.first, (unsigned long long)check.offset,
          (unsigned long long)check.messages, breaks, (unsigned long long)check.bad, check.crc ^ 0xFFFFFFFFU,
          check.bad == 0 && check.received > 0 ? "ok" : "bad");
    if (timedOut) event("TIMEOUT received=%llu ended=%d", (unsigned long long)check.received, ended ? 1 : 0);
    event("DONE role=recv received=%llu", (unsigned long long)check.received);
    NormStopReceiver(session);
    NormDestroySession(session);
    NormDestroyInstance(instance);
    return timedOut ? 3 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o = parse(argc, argv);
    NormSetDebugLevel((unsigned int)o.debug);
    if (o.stream) return o.send ? runStreamSender(o) : runStreamReceiver(o);
    return o.send ? runSender(o) : runReceiver(o);
}
