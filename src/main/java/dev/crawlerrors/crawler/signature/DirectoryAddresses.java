package dev.crawlerrors.crawler.signature;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Which addresses a key directory may be fetched from when a name resolves to them: public ones
 * only. A name that resolves into the machine's own networks would let whoever writes a
 * {@code Signature-Agent} (anyone) make this tool send requests inside them (the draft's SSRF
 * consideration), so loopback, private, link-local, shared (100.64/10), multicast, reserved and
 * unique-local addresses are refused, and an IPv4 address inside an IPv6 one is judged as itself.
 */
final class DirectoryAddresses {

    private DirectoryAddresses() {
    }

    static boolean isPublic(InetAddress address) {
        if (address.isAnyLocalAddress() || address.isLoopbackAddress() || address.isLinkLocalAddress() || address.isSiteLocalAddress()
                || address.isMulticastAddress()) {
            return false;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet6Address) {
            boolean mapped = true;
            for (int i = 0; i < 10; i++) {
                mapped &= b[i] == 0;
            }
            if (mapped && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
                return isPublicV4(new byte[] {b[12], b[13], b[14], b[15]});
            }
            if ((b[0] & 0xfe) == 0xfc) {
                return false; // unique local fc00::/7
            }
            if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) {
                return isPublicV4(new byte[] {b[2], b[3], b[4], b[5]}); // 6to4 carries an IPv4 address
            }
            if ((b[0] & 0xff) == 0 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b) {
                return isPublicV4(new byte[] {b[12], b[13], b[14], b[15]}); // NAT64 64:ff9b::/96
            }
            return true;
        }
        return address instanceof Inet4Address && isPublicV4(b);
    }

    private static boolean isPublicV4(byte[] b) {
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        return !(first == 0 || first == 10 || first == 127 || first >= 224
                || (first == 100 && second >= 64 && second <= 127)
                || (first == 169 && second == 254)
                || (first == 172 && second >= 16 && second <= 31)
                || (first == 192 && second == 168)
                || (first == 192 && second == 0 && (b[2] & 0xff) == 0)
                || (first == 198 && (second == 18 || second == 19)));
    }
}
