export function ReservationsPage() {
  return <section><h1>Reservations</h1></section>;
}
