package org.fjm2.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Looks at the journal files before Artemis opens them. Artemis reads up to the first record whose checksum fails and
 * takes a short file for one still being written, which is right for the torn last write of a crash but would make a
 * truncated or overwritten file lose its records without a word. Every file is pre-allocated to
 * {@link JournalSettings#FILE_BYTES} and starts with Artemis' 16-byte header (format version 2), so a file of another
 * size or header was damaged after it was written: the store refuses to start and names it.
 */
final class JournalFileCheck {

    private static final Logger LOG = LoggerFactory.getLogger(JournalFileCheck.class);
    /** Artemis' journal format (JournalImpl.FORMAT_VERSION), the first int of every file. */
    static final int ARTEMIS_FORMAT_VERSION = 2;
    static final int ARTEMIS_HEADER_BYTES = 16;

    private JournalFileCheck() {
    }

    /**
     * @throws CorruptJournalException naming the damaged file and what the others hold
     */
    static void check(Path directory) throws IOException {
        List<Path> files = journalFiles(directory);
        for (Path file : files) {
            long size = Files.size(file);
            ByteBuffer header = ByteBuffer.allocate(ARTEMIS_HEADER_BYTES);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                while (header.hasRemaining() && channel.read(header) >= 0) {
                    // read the whole header or up to the end of a short file
                }
            }
            header.flip();
            if (isUnwritten(header)) {
                // A crash while Artemis allocated a new file: it holds no record (records follow the header).
                LOG.warn("journal file {} was being created when the store stopped ({} bytes, no header): removed",
                        file, size);
                Files.delete(file);
                continue;
            }
            String problem = null;
            if (header.remaining() < ARTEMIS_HEADER_BYTES || header.getInt(0) != ARTEMIS_FORMAT_VERSION) {
                problem = "does not start with an Artemis journal header (format " + ARTEMIS_FORMAT_VERSION + ")";
            } else if (size != JournalSettings.FILE_BYTES) {
                problem = "is truncated or extended: " + size + " bytes where every journal file has "
                        + JournalSettings.FILE_BYTES;
            }
            if (problem != null) {
                throw new CorruptJournalException("journal file " + file + " " + problem + ". The store does not start"
                        + " on a damaged journal, since records in that file would be lost without notice. The other "
                        + (files.size() - 1) + " journal file(s) in " + directory + " are intact: move " + file
                        .getFileName() + " out of the directory to start with what they hold (and what it held is "
                        + "lost), or restore it from a backup.");
            }
        }
    }

    private static boolean isUnwritten(ByteBuffer header) {
        for (int i = 0; i < header.remaining(); i++) {
            if (header.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    static List<Path> journalFiles(Path directory) throws IOException {
        List<Path> files = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return files;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory,
                JournalSettings.FILE_PREFIX + "-*." + JournalSettings.FILE_EXTENSION)) {
            stream.forEach(files::add);
        }
        files.sort(null);
        return files;
    }

    /** A journal file damaged after it was written; the message names it. */
    static final class CorruptJournalException extends IOException {
        CorruptJournalException(String message) {
            super(message);
        }
    }
}
