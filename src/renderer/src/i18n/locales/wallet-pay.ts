/**
 * Paying from the wallet (issue #28): one transaction for a wave, reviewed, signed where the keys are.
 * Vocabulary: docs/GLOSSARY.md (carteira da tesouraria, tarifa, transmitir).
 */
export const walletPay = {
  'pt-BR': {
    payWave: 'Pagar a onda com a carteira',
    nothingToPay: 'Nenhum pagamento desta execução está aguardando depósito.',
    building: 'Consultando o serviço e montando a transação…',
    progressStatus: 'Conferindo cada pagamento com o serviço: {{done}} de {{n}}.',
    buildingLong:
      'Montando uma transação com {{n}} pagamentos. A carteira protege cada valor com uma prova criptográfica, o que leva cerca de {{seconds}} s neste computador; o aplicativo continua respondendo.',
    saveFile: 'Salvar PSET em arquivo',
    saved: 'PSET salva no arquivo escolhido.',
    loadFile: 'Carregar PSET assinada de arquivo',
    showQr: 'Mostrar QR code',
    qrAlt: 'QR code da PSET',
    qrTooLarge:
      'Esta PSET tem {{chars}} caracteres e não cabe em um QR code (máximo de {{max}}). Use o arquivo ou copie o texto.',
    reviewHeading: 'Revise antes de assinar',
    colPayee: 'Favorecido',
    colAmount: 'Valor (R$)',
    colDepix: 'DePix',
    colAddress: 'Endereço de depósito',
    colDeadline: 'Prazo',
    total: 'Total: {{amount}}',
    fee: 'Tarifa da rede: {{fee}}',
    after: 'Saldo depois: {{depix}} · {{lbtc}}',
    exportHeading: 'Levar para o assinador',
    exportHelp:
      'Copie a PSET abaixo para a carteira que guarda as chaves (Blockstream App/Jade, Elements, LWK) e traga de volta a PSET assinada.',
    copy: 'Copiar PSET',
    importLabel: 'PSET assinada',
    import: 'Carregar PSET assinada',
    missing:
      'Assinatura carregada. Ainda faltam assinaturas de {{n}} assinante(s): exporte de novo para o próximo.',
    signSandbox: 'Assinar com a carteira do Sandbox',
    broadcast: 'Transmitir',
    cancel: 'Cancelar esta transação',
    signed: 'Assinada e conferida: é a transação revisada.',
    recorded: 'Transmitida. Pagamentos marcados como enviados com a transação {{txid}}.',
    cancelled: 'Transação cancelada: os pagamentos podem entrar em outra.',
  },
  en: {
    payWave: 'Pay the wave from the wallet',
    nothingToPay: 'No payment of this run is waiting for its deposit.',
    building: 'Asking the service and building the transaction…',
    progressStatus: 'Checking each payment with the service: {{done}} of {{n}}.',
    buildingLong:
      'Building one transaction for {{n}} payments. The wallet protects each amount with a cryptographic proof, which takes about {{seconds}} s on this computer; the app stays responsive.',
    saveFile: 'Save PSET to a file',
    saved: 'PSET saved to the chosen file.',
    loadFile: 'Load signed PSET from a file',
    showQr: 'Show QR code',
    qrAlt: 'PSET QR code',
    qrTooLarge:
      'This PSET has {{chars}} characters and does not fit in a QR code (at most {{max}}). Use the file or copy the text.',
    reviewHeading: 'Review before signing',
    colPayee: 'Payee',
    colAmount: 'Amount (R$)',
    colDepix: 'DePix',
    colAddress: 'Deposit address',
    colDeadline: 'Deadline',
    total: 'Total: {{amount}}',
    fee: 'Network fee: {{fee}}',
    after: 'Balance after: {{depix}} · {{lbtc}}',
    exportHeading: 'Take it to the signer',
    exportHelp:
      'Copy the PSET below to the wallet that holds the keys (Blockstream App/Jade, Elements, LWK) and bring the signed PSET back.',
    copy: 'Copy PSET',
    importLabel: 'Signed PSET',
    import: 'Load signed PSET',
    missing:
      'Signature loaded. Signatures from {{n}} signer(s) still missing: export again for the next one.',
    signSandbox: 'Sign with the Sandbox wallet',
    broadcast: 'Broadcast',
    cancel: 'Cancel this transaction',
    signed: 'Signed and checked: it is the reviewed transaction.',
    recorded: 'Broadcast. Payments marked as sent with transaction {{txid}}.',
    cancelled: 'Transaction cancelled: the payments may go into another one.',
  },
} as const
