package dev.crawlerrors.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * The answer to a request Jetty refuses before any route sees it: an address longer than it takes
 * (414), headers larger than it takes (431), bytes that are no HTTP (400). Such a request's path
 * was never read whole (Jetty names it {@code /badMessage}), so whether it was for the API cannot
 * be known: the answer is the API's JSON error, which a script can read and a browser shows as
 * text, with what to do in words instead of Jetty's HTML table.
 */
final class ProtocolErrors extends ErrorHandler {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What Jetty takes of a request's line and headers: its default, which the server keeps. */
    private final int maxHeaderBytes = new HttpConfiguration().getRequestHeaderSize();

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause, Callback callback)
            throws IOException {
        String path = request.getHttpURI() == null ? null : request.getHttpURI().getPath();
        if (path != null && !path.equals("/badMessage") && !path.startsWith("/api/")) {
            super.generateResponse(request, response, code, message, cause, callback);
            return;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", code);
        body.put("error", words(code, message));
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        response.write(true, BufferUtil.toBuffer(JSON.writeValueAsString(body), StandardCharsets.UTF_8), callback);
    }

    private String words(int code, String message) {
        return switch (code) {
            case 414 -> "the request's address is longer than this server takes (" + maxHeaderBytes / 1024 + " KiB with its headers); "
                    + "ask with fewer or shorter filters";
            case 431 -> "the request's headers are larger than this server takes (" + maxHeaderBytes / 1024 + " KiB)";
            case 400 -> "the request is not HTTP that this server understands" + (message == null ? "" : " (" + message + ")");
            default -> message == null ? "the request was refused" : message;
        };
    }
}
