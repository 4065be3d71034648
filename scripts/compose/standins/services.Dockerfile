# Stand-in for the official postgres:15 and redis:7 images (one image, tagged as both), from Debian's packages:
# the same environment variables (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA), data path
# (/var/lib/postgresql/data), socket directory, `pg_isready` and `redis-server`/`redis-cli` on PATH.
ARG BASE
FROM ${BASE}
RUN mkdir -p /etc/postgresql-common && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf \
    && apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 redis-server \
    && rm -rf /var/lib/apt/lists/* && install -d -o redis -g redis /data
COPY entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin PGDATA=/var/lib/postgresql/data
WORKDIR /data
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
