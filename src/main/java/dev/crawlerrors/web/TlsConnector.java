package dev.crawlerrors.web;

import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Base64;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The HTTPS connector of a web config's {@code tls_server_config}: the report is served over TLS
 * only, at the address and port it would have had over HTTP. The certificate is not required to
 * name the host a client asked for (as the exporters do not): a report reached by its address or a
 * second name still answers, and the client's own check of the name is what protects it.
 */
final class TlsConnector {

    private TlsConnector() {
    }

    /** Reads the certificate and key now, so that a bad one stops the start rather than the first handshake. */
    static KeyStoreAndPassword keys(WebConfig web) {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        char[] password = Base64.getEncoder().encodeToString(random).toCharArray();
        return new KeyStoreAndPassword(PemKeyStore.load(web.certFile(), web.keyFile(), password), password);
    }

    /** A key store made in memory and the password it was made with (never written anywhere). */
    record KeyStoreAndPassword(KeyStore store, char[] password) {
    }

    static ServerConnector of(Server server, HttpConfiguration http, String host, int port, WebConfig web, KeyStoreAndPassword keys) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStore(keys.store());
        ssl.setKeyStorePassword(new String(keys.password()));
        ssl.setIncludeProtocols(web.minVersion().equals("TLS13") ? new String[] {"TLSv1.3"} : new String[] {"TLSv1.2", "TLSv1.3"});
        HttpConfiguration https = new HttpConfiguration(http);
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        secure.setSniHostCheck(false);
        https.addCustomizer(secure);
        ServerConnector connector = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"), new HttpConnectionFactory(https));
        connector.setHost(host);
        connector.setPort(port);
        return connector;
    }
}
