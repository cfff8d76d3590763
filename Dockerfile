# The cardroom server. Used by docker-compose.yml (server + PostgreSQL).
FROM python:3.11-slim

WORKDIR /app
COPY pyproject.toml README.md ./
COPY protos ./protos
COPY domain ./domain
COPY service ./service
COPY clients/cardroom ./clients/cardroom
RUN pip install --no-cache-dir ".[server]" \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin cardroom \
    && mkdir -p /data && chown cardroom:cardroom /data

# Data (the SQLite default and the signing key) lives in /data; the server
# runs as an unprivileged user that owns nothing else.
VOLUME ["/data"]
WORKDIR /data
USER cardroom
EXPOSE 50051 8080 50061
ENV CARDROOM_ADDRESS=0.0.0.0:50051
# Browsers: Connect, gRPC-Web and the reference web table (package data).
ENV CARDROOM_WEB_ADDRESS=0.0.0.0:8080
# Asks the server's own grpc.health.v1 service (TLS: set CARDROOM_TLS_CA).
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 \
    CMD ["cardroom", "health", "--address", "127.0.0.1:50051", "--timeout", "4"]
ENTRYPOINT ["cardroom"]
CMD ["serve"]
