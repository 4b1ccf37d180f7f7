# The game server as a container image: `docker build -t shuangkou .`
# compose.yaml runs two of them as a cluster on PostgreSQL and Redis (docs/deployment.md).
FROM python:3.11-slim

WORKDIR /app
COPY pyproject.toml README.md constraints.txt ./
COPY src ./src
RUN pip install --no-cache-dir -c constraints.txt . \
    && useradd --system --home-dir /var/lib/shuangkou --create-home shuangkou

USER shuangkou
EXPOSE 8000
ENTRYPOINT ["shuangkou"]
# A single server on SQLite in the data directory; compose.yaml gives each node its options.
CMD ["serve", "--host", "0.0.0.0", "--port", "8000", "--data-dir", "/var/lib/shuangkou"]
