# Production image: web (gunicorn), workers (celery), beat and the Slack bot all run from it.
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY webapp webapp
COPY knowledge knowledge
COPY verification verification
COPY bot bot
RUN pip install --index-url https://download.pytorch.org/whl/cpu torch==2.13.0 \
 && pip install .
COPY . .
RUN DJANGO_SECRET_KEY=build DATABASE_URL=postgresql://build@localhost/build python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["gunicorn", "webapp.wsgi"]
