/**
 * Hop-by-hop repair: a bounded cache of the NORM data the daemon relayed ({@link org.fjm2.tunnel.repair.RepairCache})
 * and the answering of NACKs from it ({@link org.fjm2.tunnel.repair.NackResponder}), so repairs come from the
 * nearest daemon instead of the original sender.
 */
package org.fjm2.tunnel.repair;
