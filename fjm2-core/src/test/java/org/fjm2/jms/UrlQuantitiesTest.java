package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.JMSException;
import org.junit.jupiter.api.Test;

/** The JMS layer's and the in-memory transport's URL parameters read sizes and loss in the common grammar. */
class UrlQuantitiesTest {

    @Test
    void sizesAndLossTakeUnits() throws Exception {
        ConnectionSettings settings = ConnectionSettings.parse(
                InMem.newUrl("maxBatchBytes=64k&consumerQueueBytes=64MiB&maxObjectSize=4m&lossRate=1%"));
        assertThat(settings.maxBatchBytes()).isEqualTo(64 * 1024);
        assertThat(settings.consumerQueueBytes()).isEqualTo(64L << 20);
        assertThat(ConnectionSettings.parse(InMem.newUrl("maxBatchBytes=4096")).maxBatchBytes()).isEqualTo(4096);
        assertThat(ConnectionSettings.parse("norm://239.255.0.1:6003?rxLoss=5%&txLoss=0.5%25").transportParameters())
                .containsEntry("rxLoss", "5%").containsEntry("txLoss", "0.5%");
    }

    @Test
    void aBadSizeNamesItsParameter() {
        assertThatThrownBy(() -> ConnectionSettings.parse(InMem.newUrl("maxBatchBytes=lots")))
                .isInstanceOf(JMSException.class).hasMessageContaining("maxBatchBytes");
        assertThatThrownBy(() -> ConnectionSettings.parse(InMem.newUrl("lossRate=150%")))
                .isInstanceOf(JMSException.class).hasMessageContaining("lossRate");
    }
}
