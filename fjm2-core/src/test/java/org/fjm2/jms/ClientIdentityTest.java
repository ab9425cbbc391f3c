package org.fjm2.jms;

import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The client id rules of {@link ClientIdentity}, without a connection around them. */
class ClientIdentityTest {

    private static String unique() {
        return "id-" + UUID.randomUUID();
    }

    @Test
    void setOnceAsTheFirstCallAndFreeAgainAfterRelease() throws Exception {
        String id = unique();
        ClientIdentity first = new ClientIdentity();
        assertThat(first.idOrNull()).isNull();
        first.set(id);
        assertThat(first.idOrNull()).isEqualTo(id);
        assertThatThrownBy(() -> first.set(unique())).isInstanceOf(IllegalStateException.class);

        ClientIdentity second = new ClientIdentity();
        assertThatThrownBy(() -> second.set(id)).isInstanceOf(InvalidClientIDException.class)
                .hasMessageContaining("already in use");
        first.release();
        second.set(id);
        assertThat(second.idOrNull()).isEqualTo(id);
        second.release();
    }

    @Test
    void notSettableOnceAnotherCallCameFirst() {
        ClientIdentity identity = new ClientIdentity();
        identity.freeze();
        assertThatThrownBy(() -> identity.set(unique())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("first call");
    }

    @Test
    void anEmptyIdIsRefused() {
        ClientIdentity identity = new ClientIdentity();
        assertThatThrownBy(() -> identity.set("")).isInstanceOf(InvalidClientIDException.class);
        assertThatThrownBy(() -> identity.set(null)).isInstanceOf(InvalidClientIDException.class);
    }

    @Test
    void anAdministrativeIdCannotBeChanged() throws Exception {
        String id = unique();
        ClientIdentity identity = new ClientIdentity();
        identity.claimAdministrative(id);
        assertThat(identity.idOrNull()).isEqualTo(id);
        assertThatThrownBy(() -> identity.set(unique())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("administratively");
        assertThatThrownBy(() -> new ClientIdentity().claimAdministrative(id))
                .isInstanceOf(InvalidClientIDException.class);
        identity.release();
    }
}
