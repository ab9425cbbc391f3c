package org.fjm2.norm.receiver;

import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.Fti;
import org.fjm2.norm.codec.RepairRequestReader;
import org.fjm2.norm.codec.RepairRequestWriter;

/**
 * Objects the receivers of one session share because each is used within a single call on the event loop (an FTI
 * being read, a NACK being read or written, a block being decoded): one set serves every remote sender, so that a
 * sender id — perhaps forged — costs only its own state.
 */
final class ReceiverScratch {

    final Fti fti = new Fti();
    /** Why a stream was refused ({@link RxStream#open}'s second result). */
    final LossReason[] refusal = new LossReason[1];
    final RepairRequestReader reader = new RepairRequestReader();
    final RepairRequestWriter writer = new RepairRequestWriter();
    final DecodeSources sources = new DecodeSources();
    /** The NACK or ACK being written. */
    final FeedbackFlyweight feedback = new FeedbackFlyweight();
}
