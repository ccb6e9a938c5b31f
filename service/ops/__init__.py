"""Operations: metrics, structured logs, the status of the queue, the circuit breaker."""
