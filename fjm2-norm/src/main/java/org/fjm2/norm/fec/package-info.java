/**
 * Reed-Solomon forward error correction for NORM (RFC 5740 over RFC 5510), bit-identical to NRL NORM.
 *
 * <h2>The code</h2>
 * A block of a NORM object has up to B source symbols (B is the FTI's maximum source block length) followed by
 * parity symbols. The code is the systematic Vandermonde code of RFC 5510 / Luigi Rizzo as NRL builds it:
 * evaluation points x_0 = 0 and x_r = alpha^(r-1), GF(2^8) with polynomial 0x11D or GF(2^16) with 0x1100B.
 * Parity j of a block is {@code sum_i C[j][i] * source_i} where C depends on B and j only:
 * <ul>
 *   <li><b>Short blocks</b> (k &lt; B source symbols, which RFC 5052 partitioning gives to any block, not only the
 *       last): the same (B, parity) code with source symbols k..B-1 taken as zero. The parity of a short block is
 *       NOT the parity of a (k, parity) code. Its parity symbols carry ESIs k..k+parity-1.</li>
 *   <li><b>Short symbols</b> (the object's last segment): zero-padded to the symbol length for coding. Parity bytes
 *       past the block's longest source symbol are zero; NRL sends parity only as long as that longest symbol.</li>
 *   <li><b>FTI last byte for fec_id 5</b>: NRL writes the parity count there (RFC 5510 calls it max_n = B + parity).
 *       Parity row j does not depend on the parity count, so decoding is right whichever way it is read; only the
 *       range check of a parity ESI (below k + parity) uses it.</li>
 *   <li><b>GF(2^16) elements</b> (fec_id 2, m = 16) are read little-endian, as NRL reads them on x86 and ARM hosts.</li>
 * </ul>
 *
 * <h2>Which FEC ids</h2>
 * {@link org.fjm2.norm.fec.FecCodec#forFecId FecCodec.forFecId(fecId, m)}: fec_id 5 (m = 8); fec_id 2 with m = 8
 * (same code as 5, same 24+8-bit payload id) or m = 16 (16+16-bit payload id; NRL switches to it when B + parity &gt;
 * 255); fec_id 129 (m = 8): NRL's RS8 code again, with the 32-bit SBN, 16-bit source block length and 16-bit ESI
 * payload id. The payload id and FTI layouts are the wire codec's business; this package only codes symbols.
 *
 * <h2>Use</h2>
 * <pre>{@code
 * FecCodec fec = FecCodec.forFecId(5, 8);              // one per session thread
 * // sender, once per block (k <= B source symbols, the last one maybe short):
 * fec.encodeParity(B, k, parity, src, srcOffset, srcLength, segmentSize, parityOut, parityOffset);
 * // sender, one parity symbol for a repair:
 * fec.encodeOneParity(B, k, parity, src, srcOffset, srcLength, segmentSize, j, dst, dstOffset);
 * // receiver, once it holds k distinct symbols of a block (slot s holds ESI esis[s]):
 * if (fec.decode(B, k, parity, symbols, offsets, lengths, esis, segmentSize)) {
 *     // symbols[i] at offsets[i] is now source symbol i, for every i < k
 * }
 * }</pre>
 * Decoding writes the rebuilt source symbols over the parity symbols it used and then reorders the caller's arrays
 * (references only). Putting each received source symbol in its own slot and a parity symbol in each missing one
 * means nothing moves. {@code decode} never throws on what came from the network: it returns false.
 *
 * <h2>Speed</h2>
 * Products for up to eight outputs are packed in one long, so one table load and one XOR per source byte feed eight
 * parity symbols; see {@link org.fjm2.norm.fec.SymbolKernel}. Tables for a (B, parity) code are cached per codec.
 * Numbers are in {@code benchmarks/RESULTS.md}.
 */
package org.fjm2.norm.fec;
