package org.fjm2.jms;

import jakarta.jms.ConnectionMetaData;
import org.fjm2.jms.message.PropertyNames;

import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/** What FJM2 is: Jakarta Messaging 3.1, provider FJM2, and the JMSX properties it supports. */
final class Fjm2ConnectionMetaData implements ConnectionMetaData {

    static final Fjm2ConnectionMetaData INSTANCE = new Fjm2ConnectionMetaData();
    static final String PROVIDER_NAME = "FJM2";

    @Override
    public String getJMSVersion() {
        return "3.1";
    }

    @Override
    public int getJMSMajorVersion() {
        return 3;
    }

    @Override
    public int getJMSMinorVersion() {
        return 1;
    }

    @Override
    public String getJMSProviderName() {
        return PROVIDER_NAME;
    }

    @Override
    public String getProviderVersion() {
        String v = Fjm2ConnectionMetaData.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }

    @Override
    public int getProviderMajorVersion() {
        return versionPart(0);
    }

    @Override
    public int getProviderMinorVersion() {
        return versionPart(1);
    }

    private int versionPart(int index) {
        String[] parts = getProviderVersion().split("[.-]");
        try {
            return index < parts.length ? Integer.parseInt(parts[index]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public Enumeration<String> getJMSXPropertyNames() {
        return Collections.enumeration(List.of(PropertyNames.JMSX_DELIVERY_COUNT, PropertyNames.JMSX_GROUP_ID,
                PropertyNames.JMSX_GROUP_SEQ));
    }
}
