/** The {@code fjm2 tunnel} command ({@link org.fjm2.tunnel.tool.TunnelCommand}). */
package org.fjm2.tunnel.tool;
