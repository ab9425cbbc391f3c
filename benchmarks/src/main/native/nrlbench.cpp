// nrlbench: NRL NORM (libnorm) throughput peer for `fjm2 bench norm`. A sender enqueues data objects of one size as
// fast as libnorm accepts them; a receiver counts completed objects. Both print, every --report seconds,
//   STAT t=<monotonic seconds> objects=<count> bytes=<count> aborted=<count>
// on stdout (plus READY at start and DONE at the end), which the Java driver turns into rates over a window.
// The Java twin of this protocol is org.fjm2.bench.norm.Fjm2BenchPeer; keep the two in step.
//
// With --files DIR the sender sends every regular file of DIR (in name order) as a NORM file object, its name in
// NORM_INFO, and keeps serving repairs; with --out DIR the receiver writes every object as a file of DIR (file objects
// straight into DIR, renamed by their NORM_INFO; data objects written at completion) and exits after --count objects.
// That is NRL's own file path, the baseline of `fjm2 bench norm --files`.
//
// normApi.h does not compile as C (C++ references and default arguments), hence C++.

#include <normApi.h>

#include <dirent.h>
#include <sys/select.h>
#include <time.h>

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char* const USAGE =
    "usage: nrlbench send|recv [options]\n"
    "  --addr GROUP (239.255.89.1)  --port P (6003)  --iface IF (lo)  --id NODEID (1)  --seconds S (10, then exit)\n"
    "  --report S (0.1 STAT interval)  --buffer BYTES (67108864 libnorm session buffer)\n"
    "  --socket-buffer BYTES (8388608 SO_SNDBUF/SO_RCVBUF asked of the kernel)\n"
    "send: --size BYTES (8192)  --rate BPS (2e9)  --segment BYTES (1400)  --block K (64)  --parity N (0)\n"
    "      --grtt SEC (0.001 initial estimate)  --grtt-max SEC (10)  --robust N (20 FLUSH repetitions)  --cache-count N (4096 objects)\n"
    "      --cc 1 (NORM-CC congestion control: --rate is the start)  --rate-max BPS (-1: none; the NORM-CC ceiling)\n"
    "      --files DIR (send DIR's files as file objects, name in NORM_INFO, instead of --size data objects)\n"
    "      --ahead N (0: as many as libnorm takes; else at most N objects enqueued but not yet sent, so that the\n"
    "      cache holds --cache-count - N sent objects for repair)\n"

    "recv: --rx-cache N (4096 objects pending per sender)  --out DIR (write every object as a file of DIR)\n"
    "      --count N (with --out: exit once N objects were written; 0: run --seconds)\n";

struct Options {
    bool send = false;
    std::string addr = "239.255.89.1";
    int port = 6003;
    std::string iface = "lo";
    unsigned long id = 1;
    double seconds = 10.0;
    double report = 0.1;
    unsigned long buffer = 64UL * 1024 * 1024;
    unsigned long socketBuffer = 8UL * 1024 * 1024;
    unsigned long size = 8192;
    double rate = 2e9;
    int segment = 1400;
    int block = 64;
    int parity = 0;
    double grtt = 0.001;
    double grttMax = 10.0;
    int robust = 20;
    unsigned long cacheCount = 4096;
    unsigned long rxCache = 4096;
    bool cc = false;
    double rateMax = -1.0;
    std::string filesDir;
    std::string outDir;
    unsigned long count = 0;
    unsigned long ahead = 0;
};

[[noreturn]] void fail(const std::string& why, int code) {
    std::printf("ERROR reason=%s\n", why.c_str());
    std::fflush(stdout);
    std::fprintf(stderr, "nrlbench: %s\n", why.c_str());
    std::exit(code);
}

double now() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

double number(const std::string& option, const char* value) {
    char* end = nullptr;
    double v = std::strtod(value, &end);
    if (end == value || *end != '\0' || v < 0) fail("bad value for " + option + ": " + value, 2);
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
        std::string n = argv[i];
        if (i + 1 >= argc) fail("missing value after " + n, 2);
        const char* v = argv[++i];
        if (n == "--addr") o.addr = v;
        else if (n == "--port") o.port = (int)number(n, v);
        else if (n == "--iface") o.iface = v;
        else if (n == "--id") o.id = (unsigned long)number(n, v);
        else if (n == "--seconds") o.seconds = number(n, v);
        else if (n == "--report") o.report = number(n, v);
        else if (n == "--buffer") o.buffer = (unsigned long)number(n, v);
        else if (n == "--socket-buffer") o.socketBuffer = (unsigned long)number(n, v);
        else if (n == "--size") o.size = (unsigned long)number(n, v);
        else if (n == "--rate") o.rate = number(n, v);
        else if (n == "--segment") o.segment = (int)number(n, v);
        else if (n == "--block") o.block = (int)number(n, v);
        else if (n == "--parity") o.parity = (int)number(n, v);
        else if (n == "--grtt") o.grtt = number(n, v);
        else if (n == "--grtt-max") o.grttMax = number(n, v);
        else if (n == "--robust") o.robust = (int)number(n, v);
        else if (n == "--cache-count") o.cacheCount = (unsigned long)number(n, v);
        else if (n == "--rx-cache") o.rxCache = (unsigned long)number(n, v);
        else if (n == "--cc") o.cc = number(n, v) != 0;
        else if (n == "--rate-max") o.rateMax = number(n, v);
        else if (n == "--files") o.filesDir = v;
        else if (n == "--out") o.outDir = v;
        else if (n == "--count") o.count = (unsigned long)number(n, v);
        else if (n == "--ahead") o.ahead = (unsigned long)number(n, v);
        else fail("unknown option " + n + " (see --help)", 2);
    }
    if (o.size < 1) fail("--size must be at least 1", 2);
    if (o.report <= 0) fail("--report must be positive", 2);
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
    if (select(fd + 1, &readable, nullptr, nullptr, &tv) <= 0) return false;
    return NormGetNextEvent(instance, &e, false);
}

NormSessionHandle openSession(NormInstanceHandle instance, const Options& o) {
    NormSessionHandle session = NormCreateSession(instance, o.addr.c_str(), (UINT16)o.port, (NormNodeId)o.id);
    if (session == NORM_SESSION_INVALID) fail("NormCreateSession failed for " + o.addr, 1);
    NormSetRxPortReuse(session, true, o.addr.c_str());  // several peers on one host: bind to the group
    if (!NormSetMulticastInterface(session, o.iface.c_str())) fail("cannot use interface " + o.iface, 1);
    NormSetMulticastLoopback(session, true);
    NormSetTTL(session, 1);
    return session;
}

struct Counts {
    unsigned long objects = 0;
    unsigned long long bytes = 0;
    unsigned long aborted = 0;
};

void stat(const Counts& c) {
    std::printf("STAT t=%.6f objects=%lu bytes=%llu aborted=%lu\n", now(), c.objects, c.bytes, c.aborted);
    std::fflush(stdout);
}

// The regular files of `dir`, by name.
std::vector<std::string> listFiles(const std::string& dir) {
    DIR* d = opendir(dir.c_str());
    if (d == nullptr) fail("cannot read directory " + dir, 2);
    std::vector<std::string> names;
    while (struct dirent* entry = readdir(d)) {
        if (entry->d_type == DT_REG) names.push_back(entry->d_name);
    }
    closedir(d);
    if (names.empty()) fail("no files in " + dir, 2);
    std::sort(names.begin(), names.end());
    return names;
}

// NORM_INFO reduced to a plain file name (letters, digits, '.', '_', '-'), else object-<sequence>.bin.
std::string safeFileName(NormObjectHandle object, unsigned long sequence) {
    std::string name;
    if (NormObjectHasInfo(object)) {
        std::vector<char> info(NormObjectGetInfoLength(object) + 1);
        UINT16 length = NormObjectGetInfo(object, info.data(), (UINT16)info.size());
        for (UINT16 i = 0; i < length; i++) {
            char c = info[i];
            bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                         c == '_' || c == '-';
            name += plain ? c : '_';
        }
    }
    if (name.empty() || name[0] == '.') name = "object-" + std::to_string(sequence) + ".bin";
    return name;
}

int runSender(const Options& o) {
    NormInstanceHandle instance = NormCreateInstance();
    NormSessionHandle session = openSession(instance, o);
    NormSetTxRate(session, o.rate);
    if (o.cc) {
        NormSetCongestionControl(session, true);
        NormSetTxRateBounds(session, -1.0, o.rateMax);
    }
    NormSetGrttMax(session, o.grttMax);
    NormSetGrttEstimate(session, o.grtt);
    NormSetTxRobustFactor(session, o.robust);
    // the cache bounds decide how many objects may be outstanding: room for the whole session buffer
    NormSetTxCacheBounds(session, (NormSize)o.buffer, (UINT32)o.cacheCount, (UINT32)o.cacheCount);
    if (!NormStartSender(session, (NormSessionId)1, (UINT32)o.buffer, (UINT16)o.segment, (UINT16)o.block,
                         (UINT16)o.parity)) {
        fail("NormStartSender failed (segment/block/parity rejected?)", 1);
    }
    if (!NormSetTxSocketBuffer(session, (unsigned int)o.socketBuffer)) std::printf("WARN reason=tx-socket-buffer\n");
    // every object carries the same bytes: libnorm does not copy, so one buffer serves them all
    std::vector<char> content(o.size);
    for (unsigned long i = 0; i < o.size; i++) content[i] = (char)(i * 31 + 7);
    std::printf("READY role=send node=%lu\n", o.id);
    std::fflush(stdout);

    std::vector<std::string> files = o.filesDir.empty() ? std::vector<std::string>() : listFiles(o.filesDir);
    Counts enqueued;
    unsigned long sent = 0;  // objects whose first transmission ended (NORM_TX_OBJECT_SENT)
    double start = now();
    double nextReport = start + o.report;
    while (true) {
        if (files.empty()) {
            while ((o.ahead == 0 || enqueued.objects - sent < o.ahead) &&
                   NormDataEnqueue(session, content.data(), (UINT32)o.size) != NORM_OBJECT_INVALID) {
                enqueued.objects++;
                enqueued.bytes += o.size;
            }
        } else {
            while (enqueued.objects < files.size() && (o.ahead == 0 || enqueued.objects - sent < o.ahead)) {
                const std::string& name = files[enqueued.objects];
                std::string path = o.filesDir + "/" + name;
                NormObjectHandle object = NormFileEnqueue(session, path.c_str(), name.data(), (unsigned int)name.size());
                if (object == NORM_OBJECT_INVALID) break;  // the queue is full: wait for TX_QUEUE_VACANCY
                enqueued.objects++;
            }
        }
        double t = now();
        if (t >= nextReport) {
            stat(enqueued);
            nextReport += o.report;
        }
        if (t - start >= o.seconds) break;
        NormEvent e;
        // TX_QUEUE_VACANCY, TX_OBJECT_SENT (or any event) lets us enqueue again
        if (nextEvent(instance, e, nextReport - t) && e.type == NORM_TX_OBJECT_SENT) sent++;
    }
    std::printf("DONE role=send objects=%lu\n", enqueued.objects);
    std::fflush(stdout);
    NormStopSender(session);
    NormDestroySession(session);
    NormDestroyInstance(instance);
    return 0;
}

int runReceiver(const Options& o) {
    NormInstanceHandle instance = NormCreateInstance();
    // file objects are written into the output directory as they arrive, under a temporary name until their info
    if (!o.outDir.empty() && !NormSetCacheDirectory(instance, (o.outDir + "/").c_str())) {
        fail("cannot use directory " + o.outDir, 2);
    }
    NormSessionHandle session = openSession(instance, o);
    NormSetDefaultSyncPolicy(session, NORM_SYNC_CURRENT);
    NormSetRxCacheLimit(session, (unsigned short)(o.rxCache > 65535 ? 65535 : o.rxCache));
    if (!NormStartReceiver(session, (UINT32)o.buffer)) fail("NormStartReceiver failed", 1);
    if (!NormSetRxSocketBuffer(session, (unsigned int)o.socketBuffer)) std::printf("WARN reason=rx-socket-buffer\n");
    std::printf("READY role=recv node=%lu\n", o.id);
    std::fflush(stdout);

    Counts received;
    double start = now();
    double nextReport = start + o.report;
    while (true) {
        double t = now();
        if (t >= nextReport) {
            stat(received);
            nextReport += o.report;
        }
        if (t - start >= o.seconds) break;
        NormEvent e;
        if (!nextEvent(instance, e, nextReport - t)) continue;
        if (e.type == NORM_RX_OBJECT_INFO && !o.outDir.empty() && NormObjectGetType(e.object) == NORM_OBJECT_FILE) {
            std::string path = o.outDir + "/" + safeFileName(e.object, received.objects + received.aborted);
            if (!NormFileRename(e.object, path.c_str())) fail("cannot rename to " + path, 1);
        } else if (e.type == NORM_RX_OBJECT_COMPLETED) {
            unsigned long long size = (unsigned long long)NormObjectGetSize(e.object);
            if (!o.outDir.empty() && NormObjectGetType(e.object) == NORM_OBJECT_DATA) {
                std::string path = o.outDir + "/" + safeFileName(e.object, received.objects + received.aborted);
                FILE* f = std::fopen(path.c_str(), "wb");
                if (f == nullptr || std::fwrite(NormDataAccessData(e.object), 1, size, f) != size) {
                    fail("cannot write " + path, 1);
                }
                std::fclose(f);
            }
            received.objects++;
            received.bytes += size;
            if (o.count > 0 && received.objects >= o.count) {
                stat(received);
                break;
            }
        } else if (e.type == NORM_RX_OBJECT_ABORTED) {
            received.aborted++;
        }
    }
    std::printf("DONE role=recv objects=%lu aborted=%lu\n", received.objects, received.aborted);
    std::fflush(stdout);
    NormStopReceiver(session);
    NormDestroySession(session);
    NormDestroyInstance(instance);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o = parse(argc, argv);
    return o.send ? runSender(o) : runReceiver(o);
}
