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
EXPOSE 50051
ENV CARDROOM_ADDRESS=0.0.0.0:50051
ENTRYPOINT ["cardroom"]
CMD ["serve"]
