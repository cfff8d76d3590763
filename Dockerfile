# The cardroom server. Used by docker-compose.yml (server + PostgreSQL).
FROM python:3.11-slim

WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY service ./service
COPY clients ./clients
RUN pip install --no-cache-dir .

# Data (the SQLite default and the signing key) lives in /data.
VOLUME ["/data"]
WORKDIR /data
EXPOSE 50051 8080
ENV CARDROOM_ADDRESS=0.0.0.0:50051
# Browsers: Connect, gRPC-Web and the reference web table (its committed build).
ENV CARDROOM_WEB_ADDRESS=0.0.0.0:8080 CARDROOM_WEB_ROOT=/app/clients/web/dist
ENTRYPOINT ["cardroom"]
CMD ["serve"]
